/**
 * Group 16 (RFC 8441, --http2 --extended) against real peers over TCP, both roles: right peers (the
 * bundled ones and the Node http2 fixtures) pass every case; each broken fixture (test/fixtures/
 * h2-peers/, wrong in one way) fails the case that tests its fault, with the verdict and the one-line
 * explanation naming it and RFC 8441's section, and the unrelated cases stay OK.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { catalogue, catalogueFor } from '../../src/catalogue/registry.js';
import { selectForRun } from '../../src/run/schedule.js';
import type { Explanation } from '../../src/model/explanation.js';
import { runCli, tempDir, usageMessage } from '../support/harness.js';

interface Row {
  id: string;
  status: string;
  behavior: string | null;
  behaviorClose: string | null;
  reason: string | null;
  explanation: Explanation | null;
}

const PEERS = fileURLToPath(new URL('../fixtures/h2-peers/', import.meta.url));
const peer = (file: string, ...args: string[]): string =>
  [process.execPath, path.join(PEERS, file), ...args].map((a) => (a.startsWith('{') ? a : `'${a}'`)).join(' ');

async function run(args: string[]): Promise<Map<string, Row>> {
  const outdir = await tempDir();
  await runCli(['run', '--http2', '--extended', '--cases', '16.*', '--jobs', '2', '--quiet', '--outdir', outdir, ...args], 60_000);
  const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as { cases: Row[] };
  return new Map(summary.cases.map((c) => [c.id, c]));
}

const serverRun = (command: string): Promise<Map<string, Row>> => run(['--role', 'server', ...(command === '' ? [] : ['--server', command])]);
const clientRun = (command: string): Promise<Map<string, Row>> => run(['--url', 'ws://127.0.0.1:0', ...(command === '' ? [] : ['--client', command])]);

/** Every case OK/OK but those named, which have exactly these verdicts. */
function verdicts(rows: Map<string, Row>, ids: readonly string[], bad: Record<string, string>): void {
  assert.deepEqual([...rows.keys()], ids);
  for (const [id, row] of rows) assert.equal(`${row.behavior} / ${row.behaviorClose}`, bad[id] ?? 'OK / OK', `case ${id}: ${row.explanation?.text ?? ''}`);
}

function short(rows: Map<string, Row>, id: string): string {
  const e = rows.get(id)?.explanation;
  assert.ok(e, `case ${id} has an explanation`);
  return e.short;
}

const SERVER_IDS = catalogueFor(true, 'server', 'h2')
  .filter((c) => c.id.startsWith('16.'))
  .map((c) => c.id);
const CLIENT_IDS = catalogueFor(true, 'client', 'h2')
  .filter((c) => c.id.startsWith('16.'))
  .map((c) => c.id);

describe('selection', () => {
  test("--http2 --extended: the 517 and the role's part of group 16; never 14/15; group 16 only with --http2", () => {
    assert.deepEqual(SERVER_IDS, ['16.1.1', '16.1.2', '16.1.3', '16.1.4', '16.1.5', '16.1.6', '16.1.7', '16.1.8']);
    assert.deepEqual(CLIENT_IDS, ['16.2.1', '16.2.2', '16.2.3', '16.2.4', '16.2.5']);
    for (const role of ['client', 'server'] as const) {
      const ids = catalogueFor(true, role, 'h2').map((c) => c.id);
      assert.equal(ids.length, catalogue.length + (role === 'server' ? 8 : 5));
      assert.ok(!ids.some((id) => /^1[45]\./.test(id)));
      assert.ok(!catalogueFor(true, role).some((c) => c.id.startsWith('16.')));
    }
    const base = { cases: [] as string[], excludeCases: [], extended: true, shard: null };
    assert.equal(selectForRun({ ...base, http2: true }).selected, catalogue.length + 5);
    assert.match(
      usageMessage(() => selectForRun({ ...base, cases: ['14.*'], http2: true })),
      /groups 14 and 15 script HTTP\/1\.1 opening handshakes and cannot run over --http2/,
    );
    assert.match(
      usageMessage(() => selectForRun({ ...base, cases: ['15.1.*'], role: 'server', http2: true })),
      /cannot run over --http2/,
    );
    assert.match(
      usageMessage(() => selectForRun({ ...base, cases: ['16.*'] })),
      /group 16 .* runs with --http2 --extended only/,
    );
    // A pattern that also names cases of this transport is not refused ("1*": 1.x and the rest).
    assert.ok(selectForRun({ ...base, cases: ['1*'], http2: true }).selected > 0);
  });
});

describe('group 16.1: a server under test (wsgate is the HTTP/2 client)', { concurrency: 2 }, () => {
  test('the bundled server and a Node http2 server written to be right: OK / OK everywhere', async () => {
    verdicts(await serverRun(''), SERVER_IDS, {});
    verdicts(await serverRun(peer('h2-server.js', 'good', '{port}')), SERVER_IDS, {});
  });

  test('(a) no SETTINGS_ENABLE_CONNECT_PROTOCOL: 16.1.1 FAILED naming the setting; the raw probe of :scheme still refused', async () => {
    const rows = await serverRun(peer('h2-server.js', 'no-setting', '{port}'));
    assert.equal(rows.get('16.1.1')?.behavior, 'FAILED');
    assert.match(short(rows, '16.1.1'), /SETTINGS_ENABLE_CONNECT_PROTOCOL = 0.*— RFC 8441 §3$/);
    // Every WebSocket case needs the setting: no stream is opened (a client MUST NOT), each fails saying why.
    for (const id of ['16.1.4', '16.1.7', '16.1.8']) assert.match(rows.get(id)?.reason ?? '', /did not advertise SETTINGS_ENABLE_CONNECT_PROTOCOL/);
    assert.equal(rows.get('16.1.3')?.behavior, 'OK');
  });

  test('(b) :status 101 in raw frames: 16.1.2 FAILED naming 101 and RFC 8441 §5; SETTINGS and the :scheme refusal OK', async () => {
    const rows = await serverRun(peer('raw-101-server.js', '{port}'));
    assert.equal(`${rows.get('16.1.2')?.behavior} / ${rows.get('16.1.2')?.behaviorClose}`, 'FAILED / OK');
    assert.match(short(rows, '16.1.2'), /answered :status 101 .*— RFC 8441 §5$/);
    assert.equal(rows.get('16.1.1')?.behavior, 'OK');
    assert.equal(rows.get('16.1.3')?.behavior, 'OK');
    // No WebSocket opens on a 101: the engine's cases say the answer was not valid HTTP/2.
    assert.match(short(rows, '16.1.4'), /did not open the WebSocket over HTTP\/2: the answer to the extended CONNECT was not valid HTTP\/2/);
  });

  test('(c) RST_STREAM INTERNAL_ERROR after the closing handshake: WRONG CODE on the closing, naming the code; no-closing cases OK', async () => {
    const rows = await serverRun(peer('h2-server.js', 'reset-internal', '{port}'));
    verdicts(rows, SERVER_IDS, {
      '16.1.4': 'OK / WRONG CODE',
      '16.1.5': 'OK / WRONG CODE',
      '16.1.6': 'OK / WRONG CODE',
      '16.1.7': 'OK / WRONG CODE',
      '16.1.8': 'OK / WRONG CODE',
    });
    assert.match(short(rows, '16.1.4'), /reset the stream with RST_STREAM INTERNAL_ERROR \(0x2\).* — RFC 8441 §5$/);
  });

  test('(d) never ends its stream after the closing handshake: UNCLEAN, "never ended its side of the stream with END_STREAM"', async () => {
    const rows = await serverRun(peer('h2-server.js', 'no-end-stream', '{port}'));
    verdicts(rows, SERVER_IDS, {
      '16.1.4': 'OK / UNCLEAN',
      '16.1.5': 'OK / UNCLEAN',
      '16.1.6': 'OK / UNCLEAN',
      '16.1.7': 'OK / UNCLEAN',
      '16.1.8': 'OK / UNCLEAN',
    });
    assert.match(short(rows, '16.1.4'), /never ended its side of the stream with END_STREAM; wsgate reset it \(CANCEL \(0x8\)\).* — RFC 8441 §5$/);
  });
});

describe('group 16.2: a client under test (wsgate is the HTTP/2 server)', { concurrency: 2 }, () => {
  test('the bundled client and a Node http2 client written to be right: OK / OK everywhere', async () => {
    verdicts(await clientRun(''), CLIENT_IDS, {});
    verdicts(await clientRun(peer('h2-client.js', 'good', '{url}')), CLIENT_IDS, {});
  });

  test("(f) never answers wsgate's END_STREAM: 16.2.3 UNCLEAN naming END_STREAM and RFC 8441 §5, the rest OK", async () => {
    const rows = await clientRun(peer('h2-client.js', 'no-end-stream', '{url}'));
    verdicts(rows, CLIENT_IDS, { '16.2.3': 'OK / UNCLEAN' });
    assert.match(short(rows, '16.2.3'), /never ended its side of the stream with END_STREAM.* — RFC 8441 §5$/);
  });

  test("(e) an extended CONNECT without :scheme never reaches a case: wsgate's HTTP/2 layer refuses it, the case has no result", async () => {
    const rows = await clientRun(peer('raw-no-scheme-client.js', '{url}'));
    for (const id of CLIENT_IDS) {
      const row = rows.get(id);
      assert.equal(row?.status, 'failed');
      assert.equal(row.behavior, null, `case ${id} has no verdict`);
    }
    assert.match(short(rows, '16.2.1'), /— RFC 8441 §4, §5$/);
  });
});
