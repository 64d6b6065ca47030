/**
 * Group 6 (UTF-8 handling): the vector table against Autobahn's generator and TextDecoder, all 145
 * cases against the verdicts the original gave ws, wire facts of each family, and clients that are
 * wrong in one way (late UTF-8 check, no UTF-8 check) or right (fail fast).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { TextDecoder } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { catalogue } from '../../src/catalogue/registry.js';
import { utf8Vectors } from '../../src/cases/data/utf8-vectors.js';
import { utf8Cases } from '../../src/cases/s06-utf8.js';
import { selectCases } from '../../src/cases/select.js';
import { Utf8Validator } from '../../src/protocol/utf8.js';
import type { CaseResult } from '../../src/model/report.js';
import type { FuzzingServer } from '../../src/server/fuzzing-server.js';
import { clientFrame } from '../fixtures/clients/raw-peer.js';
import { referenceCaseRows, referenceVerdictsWs, type ReferenceVerdict as FullVerdict } from '../support/autobahn-reference.js';
import { CLIENTS_AT_ONCE, fixture, REFERENCE_CLIENT, resultOf, runNode, startServer } from '../support/harness.js';
import { playInWorkers, playLooping } from './group-runs.js';

/** Autobahn's case ids of group 6, in its order (from the reference list). */
const referenceIds = referenceCaseRows()
  .map((r) => r.id)
  .filter((id) => id.startsWith('6.'));

type ReferenceVerdict = Pick<FullVerdict, 'behavior' | 'behaviorClose' | 'remoteCloseCode'>;

/** The verdicts the original Autobahn gave the ws client. */
const wsVerdicts = referenceVerdictsWs();

/** The cases of group 6 as a server selecting '6.*' numbers them (1-based /runCase index). */
const group6 = selectCases(catalogue, ['6.*']);
const GROUP6_IDS = group6.map((c) => c.id);

function indexOf(id: string): number {
  const i = GROUP6_IDS.indexOf(id);
  if (i < 0) throw new Error(`no case ${id}`);
  return i + 1;
}

const KOSME = Buffer.from('cebae1bdb9cf83cebcceb5', 'hex');
/** The same as text (its ό is U+1F79, not the U+03CC a keyboard gives). */
const KOSME_TEXT = KOSME.toString('utf8');
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

function decodes(bytes: Buffer): boolean {
  try {
    strictDecoder.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function verdictOf(r: CaseResult): ReferenceVerdict {
  return { behavior: r.behavior, behaviorClose: r.behaviorClose, remoteCloseCode: r.remoteCloseCode };
}

function expectedVerdict(id: string): ReferenceVerdict {
  const v = wsVerdicts[id];
  if (v === undefined) throw new Error(`no reference verdict for ${id}`);
  return { behavior: v.behavior, behaviorClose: v.behaviorClose, remoteCloseCode: v.remoteCloseCode };
}

/** Runs `fn` over `items`, `size` at a time. */
async function inBatches<T, R>(items: readonly T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

/** The 6.4.x first: they take two seconds each, so they share a batch instead of slowing four. */
function slowFirst(ids: readonly string[]): string[] {
  return [...ids.filter((id) => id.startsWith('6.4.')), ...ids.filter((id) => !id.startsWith('6.4.'))];
}

/** The /runCase URL of a case for an agent of its own (one agent per case, so runs never share anything). */
function caseUrl(base: string, agentPrefix: string, id: string): { id: string; agent: string; url: string } {
  const agent = `${agentPrefix}-${id}`;
  return { id, agent, url: `${base}/runCase?case=${indexOf(id)}&agent=${agent}` };
}

/**
 * Runs cases with a client that plays several /runCase URLs in turn (late-utf8.ts): CLIENTS_AT_ONCE
 * processes, the ids dealt to them in turn (slowFirst spreads the 6.4.x), each case on an agent of its own.
 */
async function runEachWith(server: FuzzingServer, base: string, script: string, agentPrefix: string, ids: readonly string[]): Promise<CaseResult[]> {
  const runs = ids.map((id) => caseUrl(base, agentPrefix, id));
  const pending = Promise.all(runs.map((r) => resultOf(server, r.agent, r.id, 60_000)));
  const lanes = Array.from({ length: CLIENTS_AT_ONCE }, (_, lane) => runs.filter((_, i) => i % CLIENTS_AT_ONCE === lane)).filter((l) => l.length > 0);
  await Promise.all(
    lanes.map((lane) =>
      runNode(
        script,
        lane.map((r) => r.url),
        120_000,
      ),
    ),
  );
  return pending;
}

/** The wirelog without octet entries (their chunking is up to TCP). */
function frameLog(r: CaseResult): unknown[] {
  return r.wirelog.filter((e) => e[0] !== 'RO' && e[0] !== 'TO');
}

// ---------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------

describe('the UTF-8 vector table', () => {
  test('132 vectors, Autobahn ids 6.5.1 to 6.23.7 in its order, each once', () => {
    assert.equal(utf8Vectors.length, 132);
    assert.deepEqual(
      utf8Vectors.map((v) => v.id),
      referenceIds.filter((id) => Number(id.split('.')[1]) >= 5),
    );
  });

  test('vectors per subgroup, as createUtf8TestSequences makes them', () => {
    const counts: Record<string, number> = {};
    for (const v of utf8Vectors) {
      const sub = v.id.split('.').slice(0, 2).join('.');
      counts[sub] = (counts[sub] ?? 0) + 1;
    }
    assert.deepEqual(counts, {
      '6.5': 5,
      '6.6': 11,
      '6.7': 4,
      '6.8': 2,
      '6.9': 4,
      '6.10': 3,
      '6.11': 5,
      '6.12': 8,
      '6.13': 5,
      '6.14': 10,
      '6.15': 1,
      '6.16': 3,
      '6.17': 5,
      '6.18': 5,
      '6.19': 5,
      '6.20': 7,
      '6.21': 8,
      '6.22': 34,
      '6.23': 7,
    });
  });

  test("every vector's valid flag agrees with TextDecoder('utf-8', { fatal: true })", () => {
    const disagree = utf8Vectors.filter((v) => decodes(Buffer.from(v.hex, 'hex')) !== v.valid).map((v) => v.id);
    assert.deepEqual(disagree, []);
  });

  test('hex is lowercase, even-length and non-empty', () => {
    for (const v of utf8Vectors) assert.match(v.hex, /^(?:[0-9a-f]{2})+$/, v.id);
  });

  test("6.6 is every prefix of 'κόσμε', marked as Autobahn's incremental validator marks it", () => {
    const prefixes = utf8Vectors.filter((v) => v.id.startsWith('6.6.'));
    const validator = new Utf8Validator();
    assert.deepEqual(
      prefixes.map((v) => [v.id, v.hex, v.valid]),
      Array.from({ length: KOSME.length }, (_, i) => {
        const prefix = KOSME.subarray(0, i + 1);
        validator.reset();
        const state = validator.validate(prefix);
        // Autobahn: res = validate(prefix); valid = res[0] and res[1] (no error, ends on a code point).
        return [`6.6.${i + 1}`, prefix.toString('hex'), state.valid && state.endsOnCodePoint];
      }),
    );
    assert.deepEqual(
      prefixes.filter((v) => v.valid).map((v) => v.id),
      ['6.6.2', '6.6.5', '6.6.7', '6.6.9', '6.6.11'],
    );
  });

  test('a few vectors byte for byte (Kuhn numbering in comments)', () => {
    const byId = new Map(utf8Vectors.map((v) => [v.id, v]));
    // The two of the spec, unchanged.
    assert.deepEqual(byId.get('6.9.2'), { id: '6.9.2', hex: 'dfbf', valid: true });
    assert.deepEqual(byId.get('6.12.7'), { id: '6.12.7', hex: '80bf80bf80bf', valid: false });
    // 3.1.9 of Kuhn's file, as Autobahn cuts it: 0x80..0xbe.
    assert.equal(byId.get('6.12.8')?.hex, Buffer.from(Array.from({ length: 0x3f }, (_, i) => 0x80 + i)).toString('hex'));
    // 3.2.1: 0xc0..0xde, each followed by a space.
    assert.equal(byId.get('6.13.1')?.hex, Buffer.from(Array.from({ length: 0x1f }, (_, i) => [0xc0 + i, 0x20]).flat()).toString('hex'));
    assert.equal(byId.get('6.13.5')?.hex, 'fc20');
    assert.equal(byId.get('6.15.1')?.hex, 'c0e080f08080f8808080fc80808080dfefbff7bfbffbbfbfbffdbfbfbfbf');
    assert.deepEqual(byId.get('6.11.5'), { id: '6.11.5', hex: 'f4908080', valid: false });
    assert.deepEqual(byId.get('6.22.34'), { id: '6.22.34', hex: 'f48fbfbf', valid: true });
  });
});

describe('the cases of group 6', () => {
  test('145 cases, in Autobahn order', () => {
    assert.deepEqual(GROUP6_IDS, referenceIds);
    assert.equal(utf8Cases.length, 145);
  });

  test('vector cases: echo and a close by us when valid; nothing and a 1007 close by the peer when not', () => {
    for (const v of utf8Vectors) {
      const c = group6[indexOf(v.id) - 1];
      assert.ok(c !== undefined);
      if (v.valid) {
        assert.equal(c.expect.OK?.length, 1, v.id);
        assert.deepEqual(c.close, { closedByMe: true, closeCode: [1000], requireClean: true }, v.id);
      } else {
        assert.deepEqual(c.expect.OK, [], v.id);
        assert.deepEqual(c.close, { closedByMe: false, closeCode: [1007], requireClean: false, closedByWrongEndpointIsFatal: true }, v.id);
      }
      assert.ok(c.description.endsWith(`Payload: 0x${v.hex}`), v.id);
    }
  });

  test('6.4.x: OK is failing after the second part, NON-STRICT after the third', () => {
    for (const id of ['6.4.1', '6.4.2', '6.4.3', '6.4.4']) {
      const c = group6[indexOf(id) - 1];
      assert.ok(c !== undefined);
      assert.deepEqual(Object.keys(c.expect), ['OK', 'NON-STRICT']);
      assert.deepEqual(c.expect.OK, [{ kind: 'timeout', tag: 'A' }]);
      assert.deepEqual(c.expect['NON-STRICT'], [
        { kind: 'timeout', tag: 'A' },
        { kind: 'timeout', tag: 'B' },
      ]);
      assert.deepEqual(c.close, { closedByMe: false, closeCode: [1007], requireClean: false, closedByWrongEndpointIsFatal: true });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Live runs
// ---------------------------------------------------------------------------------------------

describe('ws (the reference client) on all 145 cases', () => {
  let server: FuzzingServer;
  let base: string;
  const results = new Map<string, CaseResult>();
  before(async () => {
    ({ server, base } = await startServer(['6.*']));
    // One ws process for all 145 cases, looping over them itself as `wsgate run` plays it (/getCaseCount,
    // /runCase, /updateReports), CLIENTS_AT_ONCE cases at once under the gate's schedule (the 6.4.x beside).
    for (const [id, r] of await playLooping(server, base, REFERENCE_CLIENT, 'ws', { jobs: CLIENTS_AT_ONCE })) results.set(id, r);
  });
  after(() => server.close());

  test('every verdict and remote close code equals the original Autobahn run', () => {
    assert.equal(results.size, 145);
    const ours = Object.fromEntries(GROUP6_IDS.map((id) => [id, verdictOf(results.get(id) as CaseResult)]));
    const autobahn = Object.fromEntries(GROUP6_IDS.map((id) => [id, expectedVerdict(id)]));
    assert.deepEqual(ours, autobahn);
    // The only non-OK verdicts: ws checks UTF-8 at the end of a message, not as bytes arrive.
    const nonOk = GROUP6_IDS.filter((id) => results.get(id)?.behavior !== 'OK');
    assert.deepEqual(nonOk, ['6.4.1', '6.4.2', '6.4.3', '6.4.4']);
  });

  test('6.1.2: three empty frames, then the close timer of one second', () => {
    const r = results.get('6.1.2');
    assert.ok(r !== undefined);
    const log = frameLog(r);
    assert.deepEqual(log.slice(0, 4), [
      ['TF', [0, ''], 1, false, 0, null, null, null, false],
      ['TF', [0, ''], 0, false, 0, null, null, null, false],
      ['TF', [0, ''], 0, true, 0, null, null, null, false],
      ['TI', 1],
    ]);
    assert.deepEqual(r.received, [['message', '', false]]);
    // 0x01 0x00, 0x00 0x00, 0x80 0x00: the three frames, header only.
    assert.ok(r.wirelog.some((e) => e[0] === 'TO' && e[1][1].startsWith('0100')));
  });

  test('6.1.3: the middle frame carries the whole payload', () => {
    const r = results.get('6.1.3');
    assert.ok(r !== undefined);
    assert.deepEqual(frameLog(r)[1], ['TF', [20, 'middle frame payload'], 0, false, 0, null, null, null, false]);
    assert.deepEqual(r.received, [['message', 'middle frame payload', false]]);
  });

  test('6.2.2: split on a code point boundary; 6.2.3 and 6.2.4: one byte per frame', () => {
    const split = results.get('6.2.2');
    assert.ok(split !== undefined);
    assert.deepEqual(frameLog(split).slice(0, 3), [
      ['TF', [15, 'Hello-µ@ßöä'], 1, false, 0, null, null, null, false],
      ['TF', [14, 'üàá-UTF-8!!'], 0, true, 0, null, null, null, false],
      ['TI', 1],
    ]);
    const bytes = results.get('6.2.3');
    assert.ok(bytes !== undefined);
    const tfs = bytes.wirelog.filter((e) => e[0] === 'TF' && e[2] !== 8);
    // 'Hello-µ@ßöäüàá-UTF-8!!' is 29 bytes; 0xc2 alone (the first byte of µ) is logged as hex. As in
    // autobahn-python, a payload that is a multiple of the fragment size ends with an empty FIN frame.
    assert.equal(tfs.length, 30);
    assert.deepEqual(tfs[0], ['TF', [1, 'H'], 1, false, 0, null, null, null, false]);
    assert.deepEqual(tfs[6], ['TF', [1, '0xc2'], 0, false, 0, null, null, null, false]);
    assert.deepEqual(tfs[28], ['TF', [1, '!'], 0, false, 0, null, null, null, false]);
    assert.deepEqual(tfs[29], ['TF', [0, ''], 0, true, 0, null, null, null, false]);
    const kosme = results.get('6.2.4');
    assert.ok(kosme !== undefined);
    assert.equal(kosme.wirelog.filter((e) => e[0] === 'TF' && e[2] !== 8).length, 12);
    assert.deepEqual(kosme.received, [['message', KOSME_TEXT, false]]);
  });

  test('6.3.1: one frame, logged in hex, then the one-second fail timer; 6.3.2: 20 one-byte frames and an empty one', () => {
    const r = results.get('6.3.1');
    assert.ok(r !== undefined);
    assert.deepEqual(frameLog(r).slice(0, 2), [
      ['TF', [20, '0xcebae1bdb9cf83cebcceb5eda080656469746564'], 1, true, 0, null, null, null, false],
      ['KL', 1],
    ]);
    const frames = results.get('6.3.2');
    assert.ok(frames !== undefined);
    const tfs = frames.wirelog.filter((e) => e[0] === 'TF' && e[2] !== 8);
    assert.equal(tfs.length, 21);
    assert.deepEqual(tfs[19], ['TF', [1, 'd'], 0, false, 0, null, null, null, false]);
    assert.deepEqual(tfs[20], ['TF', [0, ''], 0, true, 0, null, null, null, false]);
  });

  test('6.4.1: three frames a second apart, both pauses logged, then the fail timer', () => {
    const r = results.get('6.4.1');
    assert.ok(r !== undefined);
    assert.deepEqual(frameLog(r).slice(0, 8), [
      ['TF', [11, KOSME_TEXT], 1, false, 0, null, null, null, false],
      ['CT', 1, 'A'],
      ['CTE', 'A'],
      ['TF', [4, '0xf4908080'], 0, false, 0, null, null, null, false],
      ['CT', 1, 'B'],
      ['CTE', 'B'],
      ['TF', [6, 'edited'], 0, true, 0, null, null, null, false],
      ['KL', 1],
    ]);
    assert.deepEqual(r.received, [
      ['timeout', 'A'],
      ['timeout', 'B'],
    ]);
    assert.ok(r.duration >= 1990, `duration ${r.duration}`);
  });

  test('6.4.2: the second frame is the single byte 0x90', () => {
    const r = results.get('6.4.2');
    assert.ok(r !== undefined);
    const tfs = r.wirelog.filter((e) => e[0] === 'TF' && e[2] !== 8);
    assert.deepEqual(
      tfs.map((e) => e[1]),
      [
        [12, '0xcebae1bdb9cf83cebcceb5f4'],
        [1, '0x90'],
        [8, '0x8080656469746564'],
      ],
    );
  });

  test('6.4.3 and 6.4.4: one frame header, the payload in three writes, an empty final frame', () => {
    const three = results.get('6.4.3');
    assert.ok(three !== undefined);
    const tos = three.wirelog.filter((e) => e[0] === 'TO').map((e) => e[1][1]);
    // 0x01 0x15: text, no FIN, 21 bytes, unmasked; the parts; 0x80 0x00: continuation, FIN, empty.
    assert.deepEqual(tos.slice(1, 6), ['0115', 'cebae1bdb9cf83cebcceb5', 'f4908080', '656469746564', '8000']);
    assert.deepEqual(frameLog(three).slice(0, 6), [
      ['CT', 1, 'A'],
      ['CTE', 'A'],
      ['CT', 1, 'B'],
      ['CTE', 'B'],
      ['TF', [0, ''], 0, true, 0, null, null, null, false],
      ['KL', 1],
    ]);
    // Only sendFrame counts frames, as in Autobahn: the chopped frame is not in the statistics.
    assert.deepEqual(three.txFrameStats, { '0': 1, '8': 1 });
    const four = results.get('6.4.4');
    assert.ok(four !== undefined);
    const tos4 = four.wirelog.filter((e) => e[0] === 'TO').map((e) => e[1][1]);
    assert.deepEqual(tos4.slice(1, 6), ['0115', 'cebae1bdb9cf83cebcceb5f4', '90', '8080656469746564', '8000']);
  });

  test('vector cases: one unfragmented text frame, then the half-second fail timer', () => {
    for (const id of ['6.6.1', '6.9.2', '6.12.8', '6.22.34']) {
      const r = results.get(id);
      const v = utf8Vectors.find((x) => x.id === id);
      assert.ok(r !== undefined && v !== undefined);
      const payload = Buffer.from(v.hex, 'hex');
      const shown = decodes(payload.subarray(0, 64)) ? payload.toString('utf8') : `0x${v.hex.slice(0, 128)}${payload.length > 60 ? ' ...' : ''}`;
      assert.deepEqual(
        frameLog(r).slice(0, 2),
        [
          ['TF', [payload.length, shown], 1, true, 0, null, null, null, false],
          ['KL', 0.5],
        ],
        id,
      );
    }
  });
});

/** The scripted cases, the first vector of each subgroup, and a valid prefix (6.6.2) and an invalid boundary (6.11.5). */
const LATE_IDS = [
  ...GROUP6_IDS.filter((id) => Number(id.split('.')[1]) <= 4),
  ...GROUP6_IDS.filter((id) => Number(id.split('.')[1]) >= 5 && id.endsWith('.1')),
  '6.6.2',
  '6.11.5',
];

describe('late-utf8 (checks UTF-8 only when a message is complete)', () => {
  let server: FuzzingServer;
  let base: string;
  const results = new Map<string, CaseResult>();
  before(async () => {
    ({ server, base } = await startServer(['6.*']));
    const all = await runEachWith(server, base, fixture('late-utf8'), 'late', slowFirst(LATE_IDS));
    for (const r of all) results.set(r.id, r);
  });
  after(() => server.close());

  test('6.4.1-6.4.4: NON-STRICT (the message is refused, but only after its last part), closing OK with 1007', () => {
    for (const id of ['6.4.1', '6.4.2', '6.4.3', '6.4.4']) {
      const r = results.get(id);
      assert.ok(r !== undefined);
      assert.deepEqual(verdictOf(r), { behavior: 'NON-STRICT', behaviorClose: 'OK', remoteCloseCode: 1007 }, id);
      assert.deepEqual(
        r.received,
        [
          ['timeout', 'A'],
          ['timeout', 'B'],
        ],
        id,
      );
    }
  });

  test('6.1-6.3 and vectors of every subgroup: OK, closing OK (1000 after an echo, 1007 on invalid UTF-8), as ws', () => {
    assert.equal(results.size, 13 + 19 + 2);
    const others = LATE_IDS.filter((id) => !id.startsWith('6.4.'));
    const ours = Object.fromEntries(others.map((id) => [id, verdictOf(results.get(id) as CaseResult)]));
    const wanted = Object.fromEntries(
      others.map((id) => {
        const invalid = id.startsWith('6.3.') || utf8Vectors.some((v) => v.id === id && !v.valid);
        return [id, { behavior: 'OK', behaviorClose: 'OK', remoteCloseCode: invalid ? 1007 : 1000 }];
      }),
    );
    assert.deepEqual(ours, wanted);
    // The same verdicts as the original gave ws, which checks UTF-8 the same way.
    assert.deepEqual(ours, Object.fromEntries(others.map((id) => [id, expectedVerdict(id)])));
  });
});

describe('echo-invalid (echoes text without checking UTF-8)', () => {
  let server: FuzzingServer;
  let base: string;
  before(async () => {
    ({ server, base } = await startServer(['6.*']));
  });
  after(() => server.close());

  test('invalid vectors: FAILED / FAILED (the echo is invalid UTF-8, so wsgate fails the connection itself)', async () => {
    const ids = ['6.3.1', '6.6.1', '6.8.1', '6.11.5', '6.12.7', '6.14.10', '6.18.3', '6.20.1', '6.21.8'];
    // The unchanged fixture, a worker thread per case (group-runs.ts playInWorkers).
    const results = await playInWorkers(
      server,
      fixture('echo-invalid'),
      ids.map((id) => caseUrl(base, 'echo-invalid', id)),
    );
    assert.equal(results.size, ids.length);
    for (const r of results.values()) {
      assert.deepEqual(verdictOf(r), { behavior: 'FAILED', behaviorClose: 'FAILED', remoteCloseCode: null }, r.id);
      assert.equal(r.resultClose, 'The connection was failed by the wrong endpoint', r.id);
      // wsgate refuses the echoed message with 1007, as Autobahn's engine does.
      assert.equal(r.closedByMe, true, r.id);
      assert.equal(r.failedByMe, true, r.id);
      assert.equal(r.localCloseCode, 1007, r.id);
      assert.deepEqual(r.received, [], r.id);
    }
  });

  test('valid vectors are still OK', async () => {
    const ids = ['6.5.5', '6.6.11', '6.22.1'];
    const results = await playInWorkers(
      server,
      fixture('echo-invalid'),
      ids.map((id) => caseUrl(base, 'echo-invalid', id)),
    );
    assert.equal(results.size, ids.length);
    for (const r of results.values()) assert.deepEqual(verdictOf(r), { behavior: 'OK', behaviorClose: 'OK', remoteCloseCode: null }, r.id);
  });
});

// ---------------------------------------------------------------------------------------------
// A client that fails fast, for the OK side of 6.4
// ---------------------------------------------------------------------------------------------

/**
 * A client that checks UTF-8 as payload bytes arrive (TextDecoder in streaming mode), written here
 * without wsgate's protocol layer: fails with close 1007 at the first impossible byte, even inside a
 * frame, echoes valid messages and answers closes. Resolves when TCP is closed.
 */
function runFailFastClient(url: string): Promise<void> {
  return new Promise((resolve) => {
    const u = new URL(url);
    const key = randomBytes(16).toString('base64');
    const socket = net.connect(Number(u.port), u.hostname, () => {
      socket.write(
        `GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    const code = (n: number): Buffer => Buffer.from([n >> 8, n & 0xff]);
    let buf = Buffer.alloc(0);
    let open = false;
    let closing = false;
    let frame: { opcode: number; fin: boolean; remaining: number; chunks: Buffer[] } | null = null;
    let message: { opcode: number; chunks: Buffer[]; decoder: TextDecoder | null } | null = null;
    const fail = (): void => {
      closing = true;
      socket.write(clientFrame(8, code(1007)));
    };
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (!open) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        open = true;
        buf = buf.subarray(end + 4);
      }
      while (!closing) {
        if (frame === null) {
          if (buf.length < 2) return;
          let len = (buf[1] as number) & 0x7f;
          let off = 2;
          if (len === 126) {
            if (buf.length < 4) return;
            len = buf.readUInt16BE(2);
            off = 4;
          } else if (len === 127) {
            if (buf.length < 10) return;
            len = Number(buf.readBigUInt64BE(2));
            off = 10;
          }
          const b0 = buf[0] as number;
          frame = { opcode: b0 & 0x0f, fin: (b0 & 0x80) !== 0, remaining: len, chunks: [] };
          buf = buf.subarray(off);
          if (frame.opcode === 1 || frame.opcode === 2) {
            message = { opcode: frame.opcode, chunks: [], decoder: frame.opcode === 1 ? new TextDecoder('utf-8', { fatal: true }) : null };
          }
        }
        const piece = buf.subarray(0, Math.min(buf.length, frame.remaining));
        buf = buf.subarray(piece.length);
        frame.remaining -= piece.length;
        if (frame.opcode < 8 && message !== null) {
          try {
            message.decoder?.decode(piece, { stream: true });
          } catch {
            fail();
            return;
          }
          message.chunks.push(piece);
        } else {
          frame.chunks.push(piece);
        }
        if (frame.remaining > 0) return;
        const done = frame;
        frame = null;
        if (done.opcode === 8) {
          closing = true;
          const payload = Buffer.concat(done.chunks);
          socket.write(clientFrame(8, payload.length >= 2 ? payload.subarray(0, 2) : Buffer.alloc(0)));
        } else if (done.opcode < 8 && done.fin && message !== null) {
          try {
            message.decoder?.decode(); // a message may not end inside a code point
          } catch {
            fail();
            return;
          }
          socket.write(clientFrame(message.opcode, Buffer.concat(message.chunks)));
          message = null;
        }
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
  });
}

describe('a fail-fast client', () => {
  let server: FuzzingServer;
  let base: string;
  before(async () => {
    ({ server, base } = await startServer(['6.*']));
  });
  after(() => server.close());

  test('6.4.1-6.4.4: OK, failed right after the second part (frame or chop); 6.3.x and vectors OK', async () => {
    const ids = ['6.4.1', '6.4.2', '6.4.3', '6.4.4', '6.3.1', '6.3.2', '6.2.3', '6.6.4', '6.9.2', '6.20.7'];
    const results = await inBatches(ids, CLIENTS_AT_ONCE, async (id) => {
      const agent = `failfast-${id}`;
      const pending = resultOf(server, agent, id, 15_000);
      await runFailFastClient(`${base}/runCase?case=${indexOf(id)}&agent=${agent}`);
      return pending;
    });
    for (const r of results) {
      const invalid = !r.id.startsWith('6.2.') && r.id !== '6.9.2';
      // It answers the server's close with the same code, 1000, after an echo.
      assert.deepEqual(verdictOf(r), { behavior: 'OK', behaviorClose: 'OK', remoteCloseCode: invalid ? 1007 : 1000 }, r.id);
      if (r.id.startsWith('6.4.')) {
        assert.deepEqual(r.received, [['timeout', 'A']], r.id);
        // The second pause was never reached: the connection was gone before it ended.
        assert.ok(!r.wirelog.some((e) => e[0] === 'CTE' && e[1] === 'B'), r.id);
        // It waited out the first pause (a bound above would be a timing assertion: the CTE check says it ended early).
        assert.ok(r.duration >= 990, `${r.id}: ${r.duration}`);
      }
    }
  });
});
