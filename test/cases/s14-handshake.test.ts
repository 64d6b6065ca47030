/**
 * Group 14 (wsgate's own, --extended): the default catalogue is still Autobahn's 517 in Autobahn's
 * order; a strict client of our own passes the whole group; the same client without the
 * Sec-WebSocket-Accept check fails exactly the cases that check it; the bundled ws client's results
 * per case; the scripted response goes out exactly as the case wrote it; reports mark the group.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { catalogue, catalogueFor, extendedCatalogue } from '../../src/catalogue/registry.js';
import { selectCases } from '../../src/cases/select.js';
import { resolveRunConfig } from '../../src/config/run-config.js';
import { resolveServeConfig } from '../../src/config/schema.js';
import type { CaseResult } from '../../src/model/report.js';
import type { FuzzingServer } from '../../src/server/fuzzing-server.js';
import { createServer } from '../../src/server/factory.js';
import { CLIENTS_AT_ONCE, fixture, REFERENCE_CLIENT, resultOf, runCli, runNode, tempDir } from '../support/harness.js';
import { referenceCaseRows } from '../support/autobahn-reference.js';

const autobahnIds = referenceCaseRows().map((r) => r.id);

const GROUP = extendedCatalogue.filter((c) => c.id.startsWith('14.')).map((c) => c.id);
/** The cases that check Sec-WebSocket-Accept (wrong, missing, wrong letter case). */
const ACCEPT_CASES = ['14.1.1', '14.1.2', '14.1.8'];
/** The case that needs a client offering no extension. */
const NO_OFFER_CASE = '14.2.3';

describe('the catalogue with and without --extended', () => {
  test("without --extended: Autobahn's 517 ids in Autobahn's order, nothing of group 14", () => {
    assert.equal(catalogueFor(false), catalogue);
    assert.deepEqual(
      catalogue.map((c) => c.id),
      autobahnIds,
    );
    assert.deepEqual(
      selectCases(catalogue, []).map((c) => c.id),
      autobahnIds,
    );
    assert.throws(() => selectCases(catalogue, ['14.1.1']), /^Error: "14\.1\.1" is one of wsgate's own cases \(group 14\): add --extended$/);
  });

  test('with --extended: the same 517 at the same indices, then group 14', () => {
    assert.equal(catalogueFor(true), extendedCatalogue);
    const ids = extendedCatalogue.map((c) => c.id);
    assert.deepEqual(ids.slice(0, 517), autobahnIds);
    assert.deepEqual(ids.slice(517), GROUP);
    assert.equal(GROUP.length, 28);
    assert.deepEqual(GROUP.slice(0, 3), ['14.1.1', '14.1.2', '14.1.3']);
    // Autobahn's patterns: "1*" now reaches 14.x too, "1.*" does not.
    assert.ok(selectCases(extendedCatalogue, ['1*']).some((c) => c.id === '14.1.1'));
    assert.ok(!selectCases(extendedCatalogue, ['1.*']).some((c) => c.id.startsWith('14.')));
  });

  test('every case of group 14 names the RFC section it tests', () => {
    for (const c of extendedCatalogue.filter((x) => x.id.startsWith('14.'))) {
      assert.match(c.description, /\(RFC (6455|7692|7230) §/, c.id);
      assert.equal(c.category, 'Opening Handshake and Extension Negotiation');
      assert.notEqual(c.subcategory, '', c.id);
    }
  });

  test('the config exposes `extended` (default false) for run and serve', () => {
    assert.equal(resolveRunConfig({}).extended, false);
    assert.equal(resolveRunConfig({ extended: true }).extended, true);
    assert.equal(resolveServeConfig({ extended: true }).extended, true);
    assert.throws(() => resolveRunConfig({ extended: 'yes' }), /--extended/);
  });

  test('wsgate list: 517 lines; with --extended 545, group 14 with its RFC references', async () => {
    const plain = await runCli(['list']);
    assert.equal(plain.code, 0);
    const lines = plain.stdout.trim().split('\n');
    assert.equal(lines.length, 517);
    assert.ok(!plain.stdout.includes('14.1.1'));
    const extended = await runCli(['list', '--extended', '--cases', '14.*']);
    assert.equal(extended.code, 0, extended.stderr);
    const group = extended.stdout.trim().split('\n');
    assert.equal(group.length, 28);
    assert.match(group[0] ?? '', /^\s*1\s+14\.1\.1\s+A 101 response whose Sec-WebSocket-Accept .*\(RFC 6455 §4\.1\)$/);
    const all = await runCli(['list', '--extended']);
    const allLines = all.stdout.trim().split('\n');
    assert.equal(allLines.length, 545);
    assert.match(allLines[517] ?? '', /^518\s+14\.1\.1\s/);
    assert.match(allLines[516] ?? '', /^517\s+13\.7\.18\s/);
  });
});

/** A server selecting group 14 from the extended catalogue, and a way to run one case with a client. */
async function startGroup14(): Promise<{
  server: FuzzingServer;
  run(script: string, agent: string, ids: readonly string[], extra?: string[]): Promise<Map<string, CaseResult>>;
}> {
  const server = createServer({
    host: '127.0.0.1',
    port: 0,
    outdir: await tempDir(),
    cases: selectCases(extendedCatalogue, ['14.*']),
    statusWaitMs: 2000,
    logger: pino({ level: 'silent' }),
  });
  await server.listen();
  server.setMaxListeners(100);
  const base = `ws://127.0.0.1:${server.port}`;
  const runOne = async (script: string, agent: string, id: string, extra: string[]): Promise<CaseResult> => {
    const index = GROUP.indexOf(id) + 1;
    const pending = resultOf(server, agent, id, 20_000);
    await runNode(script, [`${base}/runCase?case=${index}&agent=${agent}`, ...extra]);
    return pending;
  };
  return {
    server,
    async run(script, agent, ids, extra = []) {
      const out = new Map<string, CaseResult>();
      for (let i = 0; i < ids.length; i += CLIENTS_AT_ONCE) {
        const part = await Promise.all(ids.slice(i, i + CLIENTS_AT_ONCE).map((id) => runOne(script, agent, id, extra)));
        for (const r of part) out.set(r.id, r);
      }
      return out;
    },
  };
}

/** "behavior/behaviorClose" of every result. */
function verdicts(results: ReadonlyMap<string, CaseResult>): Record<string, string> {
  return Object.fromEntries([...results].map(([id, r]) => [id, `${r.behavior}/${r.behaviorClose}`]));
}

function allOk(ids: readonly string[]): Record<string, string> {
  return Object.fromEntries(ids.map((id) => [id, 'OK/OK']));
}

describe('group 14 against clients of our own', () => {
  let g: Awaited<ReturnType<typeof startGroup14>>;
  before(async () => {
    g = await startGroup14();
  });
  after(async () => {
    await g.server.close();
  });

  const offering = GROUP.filter((id) => id !== NO_OFFER_CASE);

  test('a strict client passes every case (14.2.3 when it offers no extension, the rest with permessage-deflate)', async () => {
    const results = await g.run(fixture('strict-client'), 'strict', offering);
    assert.deepEqual(verdicts(results), allOk(offering));
    const noOffer = await g.run(fixture('strict-client'), 'strict-no-deflate', [NO_OFFER_CASE], ['no-deflate']);
    assert.deepEqual(verdicts(noOffer), allOk([NO_OFFER_CASE]));
    // Refusing means no data frame: nothing received, and the client dropped TCP itself.
    for (const id of GROUP.filter((x) => /^14\.[123]\./.test(x) && x !== NO_OFFER_CASE)) {
      const r = results.get(id);
      assert.ok(r !== undefined, id);
      assert.deepEqual(r.received, [], id);
      assert.equal(r.closedByMe, false, id);
      assert.equal(r.rxFrameStats['1'] ?? 0, 0, id);
    }
    // The inflate cases came back as the server meant them.
    assert.deepEqual(results.get('14.5.3')?.received, [
      ['message', '', false],
      ['message', 'Hello', false],
    ]);
  });

  test('the strict client offering no extension: the permessage-deflate cases are UNIMPLEMENTED, not failed', async () => {
    const ids = ['14.3.1', '14.5.1', '14.2.2'];
    const results = await g.run(fixture('strict-client'), 'strict-no-deflate-2', ids, ['no-deflate']);
    assert.deepEqual(verdicts(results), { '14.3.1': 'UNIMPLEMENTED/OK', '14.5.1': 'UNIMPLEMENTED/OK', '14.2.2': 'OK/OK' });
  });

  test('the same client ignoring Sec-WebSocket-Accept fails exactly the cases that check it', async () => {
    const results = await g.run(fixture('ignores-accept'), 'ignores-accept', offering);
    const expected = allOk(offering);
    for (const id of ACCEPT_CASES) expected[id] = 'FAILED/FAILED';
    assert.deepEqual(verdicts(results), expected);
    for (const id of ACCEPT_CASES) {
      const r = results.get(id);
      // It echoed the text message sent after the bad 101, and the server had to close.
      assert.deepEqual(r?.received, [['message', 'Hello, wsgate', false]], id);
      assert.equal(r?.closedByMe, true, id);
    }
  });

  test('the bundled ws client: refuses every bad response, fails 14.4.5 (tabs around header values)', async () => {
    const results = await g.run(REFERENCE_CLIENT, 'ws', GROUP);
    const expected = allOk(GROUP);
    // ws offers permessage-deflate, so 14.2.3 does not apply.
    expected[NO_OFFER_CASE] = 'UNIMPLEMENTED/OK';
    // Node's HTTP parser (under ws) does not see the token "Upgrade" in "Connection:\tUpgrade\t" (a
    // trailing tab): ws reports "Unexpected server response: 101" and drops the connection.
    expected['14.4.5'] = 'FAILED/FAILED';
    assert.deepEqual(verdicts(results), expected);
    assert.deepEqual(results.get('14.4.5')?.received, []);
    assert.equal(results.get('14.4.5')?.closedByMe, false);
  });

  test('the scripted response goes out exactly as written: bytewise one octet per write, the bad accept as scripted', async () => {
    const results = await g.run(fixture('strict-client'), 'wire', ['14.4.2', '14.1.1']);
    const bytewise = results.get('14.4.2');
    assert.ok(bytewise !== undefined);
    assert.match(
      bytewise.httpResponse,
      /^HTTP\/1\.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: [A-Za-z0-9+/]{27}=\r\n\r\n$/,
    );
    const octets = bytewise.wirelog.filter((e) => e[0] === 'TO');
    const headLength = Buffer.byteLength(bytewise.httpResponse, 'latin1');
    assert.ok(octets.length > headLength, 'one TX OCTETS entry per octet of the head, then the frames');
    for (const e of octets.slice(0, headLength)) assert.equal((e[1] as readonly [number, string])[0], 1);
    const bad = results.get('14.1.1');
    assert.ok(bad !== undefined);
    const key = /Sec-WebSocket-Key: (\S+)/i.exec(bad.httpRequest)?.[1] ?? '';
    const withoutGuid = createHash('sha1').update(key, 'latin1').digest('base64');
    assert.ok(bad.httpResponse.includes(`Sec-WebSocket-Accept: ${withoutGuid}\r\n`));
  });
});

describe("reports mark group 14 as wsgate's own", () => {
  test('summary.json origin, JUnit classname and property, the HTML matrix; the bundled client moves on after a refused handshake', async () => {
    const outdir = await tempDir();
    // The bundled client loops over the cases itself: after refusing 14.1.2 it must go on to 14.4.1.
    const res = await runCli(['run', '--extended', '--cases', '1.1.1', '14.1.2', '14.4.1', '--outdir', outdir, '--url', 'ws://127.0.0.1:0']);
    assert.equal(res.code, 0, res.stderr + res.stdout);
    const summary = JSON.parse(await readFile(path.join(outdir, 'summary.json'), 'utf8')) as {
      cases: Array<{ id: string; index: number; origin: string; status: string }>;
    };
    assert.deepEqual(
      summary.cases.map((c) => [c.index, c.id, c.origin, c.status]),
      [
        [1, '1.1.1', 'autobahn', 'passed'],
        [2, '14.1.2', 'wsgate', 'passed'],
        [3, '14.4.1', 'wsgate', 'passed'],
      ],
    );
    const junit = await readFile(path.join(outdir, 'junit.xml'), 'utf8');
    assert.match(junit, /classname="wsgate_reference_ws\.14_opening_handshake_and_extension_negotiation_wsgate"/);
    assert.match(junit, /classname="wsgate_reference_ws\.1_framing"/);
    assert.match(junit, /<property name="origin" value="wsgate"\/>/);
    const html = await readFile(path.join(outdir, 'index.html'), 'utf8');
    assert.ok(
      html.includes('14 Opening Handshake and Extension Negotiation [wsgate&#39;s own, not in Autobahn|Testsuite]') ||
        html.includes("14 Opening Handshake and Extension Negotiation [wsgate's own, not in Autobahn|Testsuite]"),
    );
    assert.match(html, /class="agent_case_result_row wsgate_own" data-case="14\.1\.2"/);
    // index.json stays Autobahn-shaped: the five keys per case.
    const index = JSON.parse(await readFile(path.join(outdir, 'index.json'), 'utf8')) as Record<string, Record<string, Record<string, unknown>>>;
    assert.deepEqual(Object.keys(index['wsgate-reference-ws']?.['14.1.2'] ?? {}).sort(), [
      'behavior',
      'behaviorClose',
      'duration',
      'remoteCloseCode',
      'reportfile',
    ]);
  });
});
