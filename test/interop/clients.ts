/**
 * The client implementations of interop/clients/ as commands for `wsgate run --client`: Node.js
 * clients from the devDependencies, Python clients from Debian's packages run by Debian's
 * /usr/bin/python3 (.ci/install-python-clients.sh installs them; a test declares `needs('python-clients')`).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli, tempDir } from '../support/harness.js';
import { PYTHON } from '../support/requirements.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Client name → command (the bundled ws client is `run` without --client). */
export const INTEROP_CLIENTS = {
  'websocket-node': `'${process.execPath}' '${path.join(ROOT, 'interop/clients/websocket-node.cjs')}' {url}`,
  'faye-websocket': `'${process.execPath}' '${path.join(ROOT, 'interop/clients/faye-websocket.cjs')}' {url}`,
  undici: `'${process.execPath}' '${path.join(ROOT, 'interop/clients/undici.mjs')}' {url}`,
  'node-websocket': `'${process.execPath}' --experimental-websocket --no-warnings '${path.join(ROOT, 'interop/clients/node-websocket.mjs')}' {url}`,
  'python-websockets': `${PYTHON} '${path.join(ROOT, 'interop/clients/python-websockets.py')}' {url}`,
  'python-aiohttp': `${PYTHON} '${path.join(ROOT, 'interop/clients/python-aiohttp.py')}' {url}`,
  'python-tornado': `${PYTHON} '${path.join(ROOT, 'interop/clients/python-tornado.py')}' {url}`,
  'python-websocket-client-mapped': `${PYTHON} '${path.join(ROOT, 'interop/clients/python-websocket-client-mapped.py')}' {url}`,
} as const;

export type InteropClient = keyof typeof INTEROP_CLIENTS;

/** One index.json entry. */
export interface IndexEntry {
  behavior: string;
  behaviorClose: string;
  remoteCloseCode: number | null;
  reportfile: string;
}

/** Runs the gate with a client (null: the bundled ws client) on the cases; returns its report directory and index. */
export async function runClient(
  client: InteropClient | null,
  cases: readonly string[],
  extra: readonly string[] = [],
): Promise<{ outdir: string; index: Record<string, IndexEntry>; code: number | null; stdout: string }> {
  const outdir = await tempDir();
  const agent = client ?? 'ws';
  const args = ['run', '--url', 'ws://127.0.0.1:0', '--agent', agent, '--outdir', outdir, '--case-timeout', '30', '--cases', ...cases, ...extra];
  if (client !== null) args.push('--client', INTEROP_CLIENTS[client]);
  const res = await runCli(args, 240_000);
  assert.ok(res.code === 0 || res.code === 1, `${agent}: exit ${String(res.code)}\n${res.stderr}`);
  const all = JSON.parse(await readFile(path.join(outdir, 'index.json'), 'utf8')) as Record<string, Record<string, IndexEntry>>;
  return { outdir, index: all[agent] ?? {}, code: res.code, stdout: res.stdout };
}

/** "behavior/behaviorClose" of a case. */
export function pair(index: Record<string, IndexEntry>, id: string): string {
  const e = index[id];
  assert.ok(e !== undefined, `no result for ${id}`);
  return `${e.behavior}/${e.behaviorClose}`;
}
