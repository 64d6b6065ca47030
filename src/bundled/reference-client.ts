#!/usr/bin/env node
/**
 * The bundled reference client: the `ws` package, echoing every message back unchanged (text as text,
 * binary as binary), with permessage-deflate offered. It is what `wsgate run` plays against when no
 * --client is given, so the gate shows a full run on any machine.
 *
 *   reference-client.js URL            one case: URL is a /runCase URL (default: $WSGATE_URL)
 *   reference-client.js BASE [AGENT]   a base URL (no path): loops over every case itself, as
 *                                      Autobahn's client drivers do (/getCaseCount, /runCase,
 *                                      /updateReports); AGENT defaults to $WSGATE_AGENT
 *
 * With WSGATE_HTTP2=1 it opens each WebSocket over HTTP/2 instead (bundled/h2-echo.ts).
 */
import type { CatalogueCase } from '../cases/types.js';
import { echoH2, HTTP2_ENV } from './h2-echo.js';
import { echo as echoWs, WS_ECHO_OPTIONS } from './ws-echo.js';

// WSGATE_HTTP2=1 (`wsgate run --http2`): every WebSocket over HTTP/2 (RFC 8441), one session each.
const echo = process.env[HTTP2_ENV] === '1' ? echoH2 : echoWs;

/**
 * WSGATE_JOBS > 1 (set by `wsgate run --jobs N` for this client only): up to N cases at once, in
 * the gate's order and under its rule (src/run/schedule.ts: group 9 alone, long cases first). The
 * case ids come from /getCaseInfo, so the rule holds for any selection the server was given.
 */
async function runConcurrently(base: string, agent: string, count: number, jobs: number): Promise<void> {
  const [{ catalogue }, { runCasesScheduled, runPool }] = await Promise.all([import('../catalogue/registry.js'), import('../run/schedule.js')]);
  const byId = new Map(catalogue.map((c) => [c.id, c]));
  // The lookups are short requests: eight at a time (one at a time cost ~1 s for 300 cases).
  const ids: string[] = new Array<string>(count).fill('');
  await runPool(
    ids.map((_, i) => i),
    8,
    () => false,
    () => false,
    (i) =>
      echo(`${base}/getCaseInfo?case=${i + 1}`, (text) => {
        ids[i] = (JSON.parse(text) as { id: string }).id;
      }),
  );
  const cases: Array<Pick<CatalogueCase, 'id' | 'schedule'>> = ids.map((id) => byId.get(id) ?? { id });
  await runCasesScheduled(
    cases,
    jobs,
    () => false,
    (i) => echo(`${base}/runCase?case=${i + 1}&agent=${agent}`),
  );
}

const url = process.argv[2] ?? process.env.WSGATE_URL;
if (url === undefined || url === '') {
  process.stderr.write('reference-client: no URL (give it as the first argument or in WSGATE_URL)\n');
  process.exit(2);
}

const parsed = new URL(url);
if (parsed.pathname === '/' || parsed.pathname === '') {
  const base = url.replace(/\/+$/, '');
  const agent = encodeURIComponent(process.argv[3] ?? process.env.WSGATE_AGENT ?? 'wsgate-reference-ws');
  let count = 0;
  await echo(`${base}/getCaseCount`, (text) => {
    count = Number(text);
  });
  const jobs = Math.max(1, Math.floor(Number(process.env.WSGATE_JOBS ?? '1')) || 1);
  if (jobs === 1) {
    for (let i = 1; i <= count; i++) await echo(`${base}/runCase?case=${i}&agent=${agent}`);
  } else {
    await runConcurrently(base, agent, count, jobs);
  }
  // /updateReports answers once every report is written: no deadline on its opening.
  const updateReports = `${base}/updateReports?agent=${agent}`;
  await (echo === echoWs ? echoWs(updateReports, undefined, WS_ECHO_OPTIONS, null) : echo(updateReports));
} else {
  await echo(url);
}
