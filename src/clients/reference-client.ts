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
 */
import WebSocket from 'ws';
import type { CatalogueCase } from '../cases/types.js';

// ws accepts `clientMaxWindowBits: true` (offer the parameter with no value) and `maxFragments`
// (ws >= 8.23), which its type definitions do not list yet.
const options = {
  // zlib level 1 (Z_BEST_SPEED) for the echoes, as ws lets its users choose (its README's example
  // tunes level and memLevel): compression levels change no verdict, and at ws's default level 6
  // the client's deflate was most of a whole run's CPU (groups 12 and 13 echo 1000 messages of up to
  // 128 KiB per case). Measured over 12.1.*, 12.3.* and 13.1.*: client CPU 118 -> 62 s, wall 116 ->
  // 63 s (BENCHMARKS.md).
  perMessageDeflate: { clientMaxWindowBits: true, zlibDeflateOptions: { level: 1 } },
  // Autobahn's 9.x cases send messages up to 16 MiB in up to 65536 fragments.
  maxPayload: 64 * 1024 * 1024,
  maxFragments: 0,
} as unknown as WebSocket.ClientOptions;

/** Connects, echoes every message, resolves when the connection is closed. */
function echo(url: string, onText?: (text: string) => void): Promise<void> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, options);
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (onText !== undefined) onText(data.toString('utf8'));
      else ws.send(data, { binary: isBinary });
    });
    // A failed connection is an expected outcome of many cases: it is not an error of this process.
    ws.on('error', () => undefined);
    ws.on('close', () => resolve());
  });
}

/**
 * WSGATE_JOBS > 1 (set by `wsgate run --jobs N` for this client only): up to N cases at once, in
 * the gate's order and under its rule (src/gate/schedule.ts: group 9 alone, long cases first). The
 * case ids come from /getCaseInfo, so the rule holds for any selection the server was given.
 */
async function runConcurrently(base: string, agent: string, count: number, jobs: number): Promise<void> {
  const [{ catalogue }, { runOrder, runPool }] = await Promise.all([import('../cases/registry.js'), import('../gate/schedule.js')]);
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
  await runPool(
    runOrder(cases, jobs),
    jobs,
    (i) => cases[i]?.schedule?.runsAlone === true,
    () => false,
    (i) => echo(`${base}/runCase?case=${i + 1}&agent=${agent}`),
    (i) => cases[i]?.schedule?.idle === true,
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
  await echo(`${base}/updateReports?agent=${agent}`);
} else {
  await echo(url);
}
