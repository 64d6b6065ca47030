/**
 * Plumbing shared by the tests of groups 1-5 and 10: a server for one group, its cases run by a client
 * process each (several at a time), and the verdicts the original Autobahn gave the ws client.
 */
import { execFile } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { catalogue } from '../../src/catalogue/registry.js';
import { selectCases } from '../../src/cases/select.js';
import type { CaseResult, WirelogEntry } from '../../src/model/report.js';
import type { FuzzingServer } from '../../src/server/fuzzing-server.js';
import { CLIENTS_AT_ONCE, resultOf, runNode, startServer } from '../support/harness.js';
import { referenceVerdictsWs } from '../support/autobahn-reference.js';

/** The three values a reference verdict has. */
export interface Verdict {
  behavior: string;
  behaviorClose: string;
  remoteCloseCode: number | null;
}

/** Autobahn 25.10.1's verdicts for ws 8.23.0 (test/fixtures/autobahn/autobahn-verdicts-ws.json). */
const wsVerdicts = referenceVerdictsWs();

/** The reference verdict of a case. */
export function wsVerdict(id: string): Verdict {
  const v = wsVerdicts[id];
  if (v === undefined) throw new Error(`no reference verdict for ${id}`);
  return { behavior: v.behavior, behaviorClose: v.behaviorClose, remoteCloseCode: v.remoteCloseCode };
}

/** The same three values of a result. */
export function verdictOf(r: CaseResult): Verdict {
  return { behavior: r.behavior, behaviorClose: r.behaviorClose, remoteCloseCode: r.remoteCloseCode };
}

/** A server selecting one group's cases, and a way to run them. */
export interface GroupServer {
  server: FuzzingServer;
  /** The selected ids, in /runCase order. */
  ids: string[];
  /** Runs the given cases (default: all) with a client script, `batch` processes at a time. */
  run(script: string, agent: string, ids?: readonly string[], batch?: number): Promise<Map<string, CaseResult>>;
  close(): Promise<void>;
}

/** Starts a server for the cases the patterns select. */
export async function startGroup(patterns: string[]): Promise<GroupServer> {
  const { server, base } = await startServer(patterns);
  // Every case waiting for its result listens for 'caseFinished'.
  server.setMaxListeners(100);
  const ids = selectCases(catalogue, patterns).map((c) => c.id);
  const runOne = async (script: string, agent: string, id: string): Promise<CaseResult> => {
    const index = ids.indexOf(id) + 1;
    if (index === 0) throw new Error(`case ${id} is not selected`);
    const pending = resultOf(server, agent, id, 20_000);
    await runNode(script, [`${base}/runCase?case=${index}&agent=${encodeURIComponent(agent)}`]);
    return pending;
  };
  return {
    server,
    ids,
    async run(script, agent, which = ids, batch = CLIENTS_AT_ONCE) {
      const out = new Map<string, CaseResult>();
      for (let i = 0; i < which.length; i += batch) {
        const part = which.slice(i, i + batch);
        const results = await Promise.all(part.map((id) => runOne(script, agent, id)));
        for (const r of results) out.set(r.id, r);
      }
      return out;
    },
    close: () => server.close(),
  };
}

/** The result of a case, which must be there. */
export function get(results: ReadonlyMap<string, CaseResult>, id: string): CaseResult {
  const r = results.get(id);
  if (r === undefined) throw new Error(`no result for ${id}`);
  return r;
}

/** Wire log entries of one kind ('TF', 'KL', ...). */
export function entries(r: CaseResult, kind: WirelogEntry[0]): WirelogEntry[] {
  return r.wirelog.filter((e) => e[0] === kind);
}

/** Wire log kinds in order, without octet entries (how TCP cut the bytes is not the case's business). */
export function frameKinds(r: CaseResult): string[] {
  return r.wirelog.filter((e) => e[0] !== 'RO' && e[0] !== 'TO').map((e) => e[0]);
}

/** A TX FRAME entry as Autobahn logs it; the payload is the logged text. */
export function tf(
  payload: readonly [number, string],
  opcode: number,
  options: { fin?: boolean; rsv?: number; chopSize?: number | null; sync?: boolean } = {},
): WirelogEntry {
  return ['TF', payload, opcode, options.fin ?? true, options.rsv ?? 0, null, null, options.chopSize ?? null, options.sync ?? false];
}

/**
 * Plays every case the server selects with ONE process of a client that loops over them itself, as
 * Autobahn's client drivers do (the bundled reference client given the base URL and an agent:
 * /getCaseCount, each /runCase, /updateReports), `jobs` cases at once (WSGATE_JOBS: the gate's own
 * schedule, group 9 alone, the 6.4.x beside the others). Resolves once the process has exited (its
 * /updateReports is answered only when every result is in) with the agent's results.
 */
export function playLooping(
  server: FuzzingServer,
  base: string,
  script: string,
  agent: string,
  options: { jobs?: number; timeoutMs?: number } = {},
): Promise<Map<string, CaseResult>> {
  const { jobs = 1, timeoutMs = 120_000 } = options;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [script, base, agent],
      { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, WSGATE_JOBS: String(jobs) } },
      (err, _stdout, stderr) => {
        if (err !== null) reject(new Error(`${script} ${base} ${agent}: ${err.message}\n${stderr}`));
        else resolve(new Map(server.results.get(agent) ?? []));
      },
    );
  });
}

/**
 * Plays cases with a fixture client run in a worker thread of this process for each case instead of a
 * process per case: the unchanged fixture script with the case's /runCase URL as its argument
 * (process.argv[2]), in its own thread and event loop, over a real TCP connection to the server; a
 * case is done when its worker has exited (its connection closed) and the server has its result.
 * `atOnce` workers at a time (default CLIENTS_AT_ONCE), the cases started in the order given.
 */
export async function playInWorkers(
  server: FuzzingServer,
  script: string,
  cases: ReadonlyArray<{ id: string; agent: string; url: string }>,
  options: { atOnce?: number; timeoutMs?: number } = {},
): Promise<Map<string, CaseResult>> {
  const { atOnce = CLIENTS_AT_ONCE, timeoutMs = 20_000 } = options;
  const out = new Map<string, CaseResult>();
  const queue = [...cases];
  const lane = async (): Promise<void> => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const { id, agent, url } = next;
      const pending = resultOf(server, agent, id, timeoutMs);
      const worker = new Worker(script, { argv: [url], stdout: true, stderr: true });
      worker.stdout.resume();
      worker.stderr.resume();
      await new Promise<void>((resolve) => {
        worker.once('error', () => undefined);
        worker.once('exit', () => resolve());
      });
      out.set(id, await pending);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(atOnce, cases.length)) }, lane));
  return out;
}
