/**
 * Group 9 (limits/performance): the ws client against the original's verdicts (with ws's default
 * maxFragments for the four cases the reference run failed), what each case sends and how it switches
 * the frame log, the echo checks in Autobahn's words, and a client that cuts long echoes to 1 MiB.
 *
 * ws plays the whole group in one process that loops over the cases itself, one after another, as
 * `wsgate run` plays it (group 9 runs alone there); the fixture clients run unchanged, each case in
 * a worker thread and a connection of its own.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { catalogue } from '../../src/catalogue/registry.js';
import { limitsCases } from '../../src/cases/s09-limits.js';
import type { CaseContext, ScriptedCase, PeerEvent, TxFrame } from '../../src/cases/types.js';
import type { CaseResult } from '../../src/model/report.js';
import type { FuzzingServer } from '../../src/server/fuzzing-server.js';
import { REFERENCE_CLIENT, fixture, startServer } from '../support/harness.js';
import { entries, frameKinds, get, playInWorkers, playLooping, verdictOf, wsVerdict } from './group-runs.js';
import { DEFAULT_BUDGETS } from '../../src/cases/data/budgets.js';

const KiB = 1024;
const MiB = 1024 * KiB;
/** The four cases that send more than 16384 fragments (ws's default maxFragments). */
const MANY_FRAGMENTS = ['9.3.1', '9.3.2', '9.4.1', '9.4.2'];
/** Generous bounds: a case that hangs fails the test in two minutes, not after its WAITSECS. */
const CASE_TIMEOUT_MS = 120_000;

const ids = limitsCases.map((c) => c.id);
const bigIds = ids.filter((id) => !id.startsWith('9.7.') && !id.startsWith('9.8.'));
const roundTripIds = ids.filter((id) => id.startsWith('9.7.') || id.startsWith('9.8.'));

/** "9.3" of "9.3.1". */
function subgroup(id: string): string {
  return id.split('.').slice(0, 2).join('.');
}

function caseOf(id: string): ScriptedCase {
  const c = limitsCases.find((x) => x.id === id);
  if (c === undefined) throw new Error(`no case ${id}`);
  return c;
}

/** The /runCase URLs of cases for an agent. */
function runCases(base: string, agent: string, which: readonly string[]): Array<{ id: string; agent: string; url: string }> {
  return which.map((id) => ({ id, agent, url: `${base}/runCase?case=${ids.indexOf(id) + 1}&agent=${encodeURIComponent(agent)}` }));
}

/** The process's resident set size, sampled while fn runs. */
async function measureRss<T>(fn: () => Promise<T>): Promise<{ value: T; before: number; peak: number; after: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const value = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, before, peak, after: process.memoryUsage().rss };
  } finally {
    clearInterval(sampler);
  }
}

const mb = (n: number): string => `${(n / MiB).toFixed(0)} MiB`;

describe('group 9: the catalogue', () => {
  test('54 cases, 9.1.1 to 9.8.6, in the catalogue in this order (9.9.1 is not registered)', () => {
    assert.equal(ids.length, 54);
    const counts: Record<string, number> = {};
    for (const id of ids) counts[subgroup(id)] = (counts[subgroup(id)] ?? 0) + 1;
    assert.deepEqual(counts, { '9.1': 6, '9.2': 6, '9.3': 9, '9.4': 9, '9.5': 6, '9.6': 6, '9.7': 6, '9.8': 6 });
    assert.deepEqual(
      catalogue.filter((c) => c.id.startsWith('9.')).map((c) => c.id),
      ids,
    );
    assert.ok(!ids.includes('9.9.1'));
  });

  test('every case reports its time, expects no event list, and is closed by the fuzzer with 1000', () => {
    for (const c of limitsCases) {
      assert.equal(c.reportTime, true, c.id);
      assert.deepEqual(c.expect, {}, c.id);
      assert.deepEqual(c.close, { closedByMe: true, closeCode: [1000], requireClean: true }, c.id);
      assert.equal(c.category, 'Limits/Performance', c.id);
    }
  });

  test('maxSeconds is WAITSECS + 2 (10/100 s for sizes, 100 s for fragments, 1000 s for chops, 60-480 s for round trips)', () => {
    const waits: Record<string, number> = {
      '9.1.1': 10,
      '9.1.2': 10,
      '9.1.3': 100,
      '9.1.4': 100,
      '9.1.5': 100,
      '9.1.6': 100,
      '9.2.1': 10,
      '9.2.2': 10,
      '9.2.3': 10,
      '9.2.4': 10,
      '9.2.5': 100,
      '9.2.6': 100,
      '9.7.1': 60,
      '9.7.2': 60,
      '9.7.3': 60,
      '9.7.4': 120,
      '9.7.5': 240,
      '9.7.6': 480,
      '9.8.1': 60,
      '9.8.2': 60,
      '9.8.3': 60,
      '9.8.4': 120,
      '9.8.5': 240,
      '9.8.6': 480,
    };
    for (const c of limitsCases) {
      const sub = subgroup(c.id);
      const wait = waits[c.id] ?? (sub === '9.3' || sub === '9.4' ? 100 : 1000);
      assert.equal(c.schedule?.maxSeconds, wait + 2, c.id);
    }
  });
});

// ---- what a case does, through a recording CaseContext ----

type Call =
  | { kind: 'sendFrame'; frame: TxFrame }
  | { kind: 'sendMessage'; length: number; first: number; binary: boolean; fragmentSize: number | undefined }
  | { kind: 'sendClose'; code: number | null }
  | { kind: 'closeAfter'; seconds: number }
  | { kind: 'setWirelog'; enabled: boolean; silent: boolean }
  | { kind: 'setOutcome'; behavior: string; result: string };

/** A CaseContext that records what the case asks for. */
class Recorder implements CaseContext {
  readonly calls: Call[] = [];
  readonly isOpen = true;
  readonly deflateActive = false;
  readonly scriptedHandshake = false;
  readonly budgets = DEFAULT_BUDGETS;
  readRate(): void {
    throw new Error('not used by these cases');
  }
  flushed(): Promise<boolean> {
    throw new Error('not used by these cases');
  }
  holdClose(): void {
    throw new Error('not used by these cases');
  }
  unreadByPeer(): number | null {
    throw new Error('not used by these cases');
  }
  peerRead(): number | null {
    throw new Error('not used by these cases');
  }
  dropConnection(): void {
    throw new Error('group 9 never drops the connection itself');
  }
  sendFrame(frame: TxFrame): void {
    this.calls.push({ kind: 'sendFrame', frame });
  }
  sendMessage(payload: Uint8Array | string, options: { binary?: boolean; fragmentSize?: number; sync?: boolean } = {}): void {
    const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload;
    assert.ok(
      bytes.every((b) => b === bytes[0]),
      'one byte repeated',
    );
    this.calls.push({ kind: 'sendMessage', length: bytes.length, first: bytes[0] ?? -1, binary: options.binary ?? false, fragmentSize: options.fragmentSize });
  }
  sendPing(): void {
    throw new Error('unexpected ping');
  }
  sendClose(code: number | null = null): void {
    this.calls.push({ kind: 'sendClose', code });
  }
  sendCloseFrame(): void {
    throw new Error('unexpected sendCloseFrame');
  }
  beginFrame(): never {
    throw new Error('unexpected beginFrame');
  }

  sendRaw(): void {
    throw new Error('unexpected sendRaw');
  }
  killAfter(): void {
    throw new Error('unexpected killAfter');
  }
  closeAfter(seconds: number): void {
    this.calls.push({ kind: 'closeAfter', seconds });
  }
  continueLater(): void {
    throw new Error('unexpected continueLater');
  }
  pause(): Promise<void> {
    throw new Error('unexpected pause');
  }
  record(_event: PeerEvent): void {
    throw new Error('unexpected record');
  }
  setOutcome(behavior: string, result: string): void {
    this.calls.push({ kind: 'setOutcome', behavior, result });
  }
  setWirelog(enabled: boolean, options: { silent?: boolean } = {}): void {
    this.calls.push({ kind: 'setWirelog', enabled, silent: options.silent ?? false });
  }
  captureTrafficStats(): void {
    throw new Error('unexpected captureTrafficStats');
  }
  prepareMessage(): never {
    throw new Error('unexpected prepareMessage');
  }
  prepareCut(): never {
    throw new Error('unexpected prepareCut');
  }
  sendPrepared(): void {
    throw new Error('unexpected sendPrepared');
  }
  /** The last outcome set. */
  get outcome(): { behavior: string; result: string } | undefined {
    const last = this.calls.filter((c) => c.kind === 'setOutcome').at(-1);
    return last && { behavior: last.behavior, result: last.result };
  }
}

function started(id: string): Recorder {
  const t = new Recorder();
  void caseOf(id).run(t);
  return t;
}

function echo(id: string, t: Recorder, data: Buffer, binary: boolean): void {
  const c = caseOf(id);
  assert.ok(c.onMessage, `${id} judges its own messages`);
  // What the session hands over: type and length only, for the cases that declare so.
  assert.equal(c.messageLengthOnly, true, `${id} needs type and length only`);
  c.onMessage(t, Buffer.alloc(0), binary, data.length);
}

const TEXT = 'BAsd7&jh23';
const BINARY = Buffer.from('00fe23faf0', 'hex');

describe('group 9: what each case sends', () => {
  test('9.1.x: "BAsd7&jh23" repeated to 64 KiB … 16 MiB in one text frame, wirelog off silently, closeAfter(WAITSECS)', () => {
    const lengths = [64 * KiB, 256 * KiB, MiB, 4 * MiB, 8 * MiB, 16 * MiB];
    const waits = [10, 10, 100, 100, 100, 100];
    lengths.forEach((length, i) => {
      const id = `9.1.${i + 1}`;
      assert.deepEqual(
        started(id).calls,
        [
          { kind: 'setWirelog', enabled: false, silent: true },
          { kind: 'setOutcome', behavior: 'FAILED', result: `Did not receive message within ${waits[i]} seconds.` },
          { kind: 'sendFrame', frame: { opcode: 1, payload: TEXT, payloadLen: length } },
          { kind: 'closeAfter', seconds: waits[i] },
        ],
        id,
      );
    });
  });

  test('9.2.x: 00 fe 23 fa f0 repeated in one binary frame; 10 s up to 4 MiB, then 100 s', () => {
    const lengths = [64 * KiB, 256 * KiB, MiB, 4 * MiB, 8 * MiB, 16 * MiB];
    const waits = [10, 10, 10, 10, 100, 100];
    lengths.forEach((length, i) => {
      const id = `9.2.${i + 1}`;
      const calls = started(id).calls;
      assert.equal(calls.length, 4);
      assert.deepEqual(calls[1], { kind: 'setOutcome', behavior: 'FAILED', result: `Did not receive message within ${waits[i]} seconds.` });
      const send = calls[2];
      assert.ok(send?.kind === 'sendFrame');
      assert.equal(send.frame.opcode, 2);
      assert.deepEqual(Buffer.from(send.frame.payload as Uint8Array), BINARY);
      assert.equal(send.frame.payloadLen, length);
      assert.deepEqual(calls[3], { kind: 'closeAfter', seconds: waits[i] });
    });
  });

  test('9.3.x / 9.4.x: 4 MiB through sendMessage with fragment sizes 64 … 4 MiB; 9.4.1 repeats 0xfe, the rest "*"', () => {
    const sizes = [64, 256, KiB, 4 * KiB, 16 * KiB, 64 * KiB, 256 * KiB, MiB, 4 * MiB];
    sizes.forEach((fragmentSize, i) => {
      for (const binary of [false, true]) {
        const id = `9.${binary ? 4 : 3}.${i + 1}`;
        assert.deepEqual(
          started(id).calls,
          [
            { kind: 'setWirelog', enabled: false, silent: true },
            { kind: 'setOutcome', behavior: 'FAILED', result: 'Did not receive message within 100 seconds.' },
            { kind: 'sendMessage', length: 4 * MiB, first: binary && i === 0 ? 0xfe : 0x2a, binary, fragmentSize },
            { kind: 'closeAfter', seconds: 100 },
          ],
          id,
        );
      }
    });
  });

  test('9.5.x / 9.6.x: 1 MiB in one frame, chopped into 64 … 2048-byte TCP writes, 1000 s', () => {
    [64, 128, 256, 512, 1024, 2048].forEach((chopSize, i) => {
      const text = started(`9.5.${i + 1}`).calls[2];
      assert.deepEqual(text, { kind: 'sendFrame', frame: { opcode: 1, payload: TEXT, payloadLen: MiB, chopSize } });
      const binary = started(`9.6.${i + 1}`).calls;
      const frame = binary[2];
      assert.ok(frame?.kind === 'sendFrame');
      assert.deepEqual({ ...frame.frame, payload: Buffer.from(frame.frame.payload as Uint8Array) }, { opcode: 2, payload: BINARY, payloadLen: MiB, chopSize });
      assert.deepEqual(binary[3], { kind: 'closeAfter', seconds: 1000 });
    });
  });

  test('9.7.x / 9.8.x: the wirelog off with a WLM entry, then one message at a time until 1000 came back', () => {
    const t = started('9.7.2');
    assert.deepEqual(t.calls, [
      { kind: 'setWirelog', enabled: false, silent: false },
      { kind: 'setOutcome', behavior: 'FAILED', result: 'Case did not finish within 60 seconds.' },
      { kind: 'closeAfter', seconds: 60 },
      { kind: 'sendFrame', frame: { opcode: 1, payload: '*', payloadLen: 16 } },
    ]);
    for (let i = 1; i < 1000; i++) echo('9.7.2', t, Buffer.alloc(16, 0x2a), false);
    assert.equal(t.calls.filter((c) => c.kind === 'sendFrame').length, 1000);
    assert.equal(
      t.calls.some((c) => c.kind === 'sendClose'),
      false,
    );
    echo('9.7.2', t, Buffer.alloc(16, 0x2a), false);
    assert.deepEqual(t.calls.slice(-3), [
      { kind: 'setOutcome', behavior: 'OK', result: "Ok, received all echo'ed messages in time." },
      { kind: 'setWirelog', enabled: true, silent: false },
      { kind: 'sendClose', code: 1000 },
    ]);

    const b = started('9.8.6');
    const first = b.calls[3];
    assert.ok(first?.kind === 'sendFrame');
    assert.deepEqual(
      { ...first.frame, payload: Buffer.from(first.frame.payload as Uint8Array) },
      { opcode: 2, payload: Buffer.from([0xfe]), payloadLen: 4096 },
    );
    assert.deepEqual(b.calls[2], { kind: 'closeAfter', seconds: 480 });
    assert.deepEqual(started('9.7.1').calls[3], { kind: 'sendFrame', frame: { opcode: 1, payload: '*', payloadLen: 0 } });
  });
});

describe('group 9: judging the echoes, in Autobahn words', () => {
  test('a right echo: OK, "Received text/binary message of length N.", wirelog back on silently, close 1000', () => {
    const t = started('9.1.1');
    echo('9.1.1', t, Buffer.alloc(64 * KiB, 0x41), false);
    assert.deepEqual(t.calls.slice(-3), [
      { kind: 'setOutcome', behavior: 'OK', result: 'Received text message of length 65536.' },
      { kind: 'setWirelog', enabled: true, silent: true },
      { kind: 'sendClose', code: 1000 },
    ]);
    const b = started('9.6.3');
    echo('9.6.3', b, Buffer.alloc(MiB), true);
    assert.deepEqual(b.outcome, { behavior: 'OK', result: 'Received binary message of length 1048576.' });
  });

  test('a wrong length or type: FAILED with the expected and actual length, or the type', () => {
    const cases: Array<[string, number, boolean, string]> = [
      ['9.1.4', MiB, false, 'Expected text message with payload of length 4194304, but got 1048576.'],
      ['9.1.4', 4 * MiB, true, 'Expected text message with payload, but got binary.'],
      ['9.2.2', 3, true, 'Expected binary message with payload of length 262144, but got 3.'],
      ['9.2.2', 256 * KiB, false, 'Expected binary message with payload, but got text.'],
      ['9.3.5', 0, false, 'Expected text message with payload of length 4194304, but got 0.'],
      ['9.4.7', 4 * MiB - 1, true, 'Expected binary message with payload of length 4194304, but got 4194303.'],
      // Autobahn's 9.4.x word a text echo as "got binary".
      ['9.4.7', 4 * MiB, false, 'Expected binary message with payload, but got binary.'],
      ['9.5.2', MiB, true, 'Expected text message with payload, but got binary.'],
      ['9.6.2', MiB, false, 'Expected binary message with payload, but got text.'],
    ];
    for (const [id, length, binary, result] of cases) {
      const t = started(id);
      echo(id, t, Buffer.alloc(length, 0x2a), binary);
      assert.deepEqual(t.outcome, { behavior: 'FAILED', result }, id);
      assert.deepEqual(t.calls.at(-1), { kind: 'sendClose', code: 1000 }, id);
    }
  });

  test('a later wrong echo keeps an earlier OK and replaces the text (as Autobahn sets only result then)', () => {
    const t = started('9.2.1');
    echo('9.2.1', t, Buffer.alloc(64 * KiB), true);
    echo('9.2.1', t, Buffer.alloc(1), true);
    assert.deepEqual(t.outcome, { behavior: 'OK', result: 'Expected binary message with payload of length 65536, but got 1.' });
  });

  test("9.7/9.8: an echo of the wrong type or length stops the run at once, with Python's True/False", () => {
    const t = started('9.8.3');
    echo('9.8.3', t, Buffer.alloc(64, 0xfe), true);
    echo('9.8.3', t, Buffer.alloc(64, 0x2a), false);
    assert.deepEqual(t.calls.slice(-3), [
      { kind: 'setOutcome', behavior: 'FAILED', result: "Echo'ed message type or length differs from what I sent (got binary = False, payload length = 64)." },
      { kind: 'setWirelog', enabled: true, silent: false },
      { kind: 'sendClose', code: 1000 },
    ]);
    assert.equal(t.calls.filter((c) => c.kind === 'sendFrame').length, 2);
    const u = started('9.7.4');
    echo('9.7.4', u, Buffer.alloc(255, 0x2a), false);
    assert.equal(u.outcome?.result, "Echo'ed message type or length differs from what I sent (got binary = False, payload length = 255).");
  });
});

// ---- over loopback ----

describe('group 9 against real clients', () => {
  let server: FuzzingServer;
  let base: string;
  let ws: Map<string, CaseResult>;
  let wsDefault: Map<string, CaseResult>;
  let truncating: Map<string, CaseResult>;
  let wallMs = 0;
  let memory: { before: number; peak: number; after: number };

  before(async () => {
    ({ server, base } = await startServer(['9.*']));
    server.setMaxListeners(200);
    const t0 = performance.now();
    // ws: one process playing all 54 cases itself, one after another (--jobs changes nothing for group 9).
    const m = await measureRss(() => playLooping(server, base, REFERENCE_CLIENT, 'ws', { timeoutMs: 5 * CASE_TIMEOUT_MS }));
    wallMs = performance.now() - t0;
    memory = { before: m.before, peak: m.peak, after: m.after };
    ws = m.value;
    // ws with its defaults on the four many-fragment cases, and the truncating client on 9.1-9.6: the
    // unchanged fixtures, a worker thread and a connection for each case (group-runs.ts playInWorkers).
    // The cases of 16385 and more frames send them all in one turn of the event loop, which keeps the
    // server busy for a second or more: a client handshaking meanwhile could run into the 5 s opening
    // handshake timeout. They run one at a time, with nothing else going on.
    const alone = { atOnce: 1, timeoutMs: CASE_TIMEOUT_MS };
    wsDefault = await playInWorkers(server, fixture('ws-default'), runCases(base, 'ws-default', MANY_FRAGMENTS), alone);
    truncating = await playInWorkers(server, fixture('truncating-echo'), runCases(base, 'truncating', MANY_FRAGMENTS), alone);
    const rest = bigIds.filter((id) => !MANY_FRAGMENTS.includes(id));
    for (const [k, v] of await playInWorkers(server, fixture('truncating-echo'), runCases(base, 'truncating', rest), { timeoutMs: CASE_TIMEOUT_MS }))
      truncating.set(k, v);
  });
  after(() => server.close());

  test('timing and memory (diagnostics)', (t) => {
    t.diagnostic(`whole group 9 against ws (one process, one case after another): ${(wallMs / 1000).toFixed(1)} s`);
    t.diagnostic(`rss of the server's process around it: before ${mb(memory.before)}, peak ${mb(memory.peak)}, after ${mb(memory.after)}`);
    const durations = ids.map((id) => `${id} ${get(ws, id).duration} ms`).join(', ');
    t.diagnostic(`durations: ${durations}`);
  });

  test('the ws client (maxFragments 0, 64 MiB maxPayload): OK/OK and close 1000 on all 54', () => {
    for (const id of ids) {
      // The reference run used ws's default maxFragments: its four FAILED verdicts are checked below.
      if (!MANY_FRAGMENTS.includes(id)) assert.deepEqual(verdictOf(get(ws, id)), wsVerdict(id), id);
      assert.deepEqual(verdictOf(get(ws, id)), { behavior: 'OK', behaviorClose: 'OK', remoteCloseCode: 1000 }, id);
    }
  });

  test('ws with its default maxFragments (16384) fails 9.3.1, 9.3.2, 9.4.1, 9.4.2 with 1008, as in the reference', () => {
    for (const id of MANY_FRAGMENTS) {
      const r = get(wsDefault, id);
      assert.deepEqual(verdictOf(r), wsVerdict(id), id);
      assert.deepEqual(verdictOf(r), { behavior: 'FAILED', behaviorClose: 'FAILED', remoteCloseCode: 1008 }, id);
      assert.equal(r.result, 'Did not receive message within 100 seconds.', id);
      assert.equal(r.resultClose, 'The connection was failed by the wrong endpoint', id);
      assert.equal(r.closedByMe, false, id);
    }
  });

  test('results in Autobahn words, reportTime, no expected events', () => {
    for (const id of ids) {
      const r = get(ws, id);
      assert.equal(r.reportTime, true, id);
      assert.deepEqual(r.expected, {}, id);
      assert.deepEqual(r.received, [], id);
      assert.equal(r.resultClose, 'Connection was properly closed', id);
      assert.equal(r.createWirelog, true, id);
    }
    assert.equal(get(ws, '9.1.6').result, 'Received text message of length 16777216.');
    assert.equal(get(ws, '9.2.1').result, 'Received binary message of length 65536.');
    assert.equal(get(ws, '9.3.1').result, 'Received text message of length 4194304.');
    assert.equal(get(ws, '9.4.9').result, 'Received binary message of length 4194304.');
    assert.equal(get(ws, '9.5.1').result, 'Received text message of length 1048576.');
    assert.equal(get(ws, '9.6.6').result, 'Received binary message of length 1048576.');
    for (const id of roundTripIds) assert.equal(get(ws, id).result, "Ok, received all echo'ed messages in time.", id);
  });

  test('9.1-9.6: the frame log is silent from the open to the echo (no WLM), then shows the closing handshake', () => {
    for (const id of bigIds) {
      const r = get(ws, id);
      assert.deepEqual(entries(r, 'WLM'), [], id);
      // The handshake (RX and TX octets) before the case switches the log off.
      assert.deepEqual(
        r.wirelog.slice(0, 2).map((e) => e[0]),
        ['RO', 'TO'],
        id,
      );
      // After the echo: our close, its octets, the peer's close.
      assert.deepEqual(entries(r, 'TF'), [['TF', [2, '0x03e8'], 8, true, 0, null, null, null, false]], id);
      assert.deepEqual(
        frameKinds(r).filter((k) => k !== 'TI'),
        ['TF', 'RF'],
        id,
      );
      assert.deepEqual(
        entries(r, 'RF').map((e) => e[2]),
        [8],
        id,
      );
    }
  });

  test('9.1-9.6: closeAfter(WAITSECS) is in the frame log although it is off (Autobahn logs TI unconditionally)', () => {
    assert.deepEqual(entries(get(ws, '9.1.1'), 'TI'), [['TI', 10]]);
    assert.deepEqual(frameKinds(get(ws, '9.1.1')), ['TI', 'TF', 'RF']);
    assert.deepEqual(frameKinds(get(ws, '9.7.1')), ['WLM', 'TI', 'WLM', 'TF', 'RF']);
  });

  test('9.7/9.8: WLM false at the open and WLM true before the close; 1000 messages sent and echoed', () => {
    for (const id of roundTripIds) {
      const r = get(ws, id);
      assert.deepEqual(
        entries(r, 'WLM'),
        [
          ['WLM', false],
          ['WLM', true],
        ],
        id,
      );
      assert.deepEqual(
        r.wirelog.slice(0, 3).map((e) => e[0]),
        ['RO', 'TO', 'WLM'],
        id,
      );
      assert.deepEqual(
        frameKinds(r).filter((k) => k !== 'TI'),
        ['WLM', 'WLM', 'TF', 'RF'],
        id,
      );
      const opcode = id.startsWith('9.7.') ? '1' : '2';
      assert.deepEqual(r.txFrameStats, { [opcode]: 1000, '8': 1 }, id);
      assert.deepEqual(r.rxFrameStats, { [opcode]: 1000, '8': 1 }, id);
    }
  });

  test('frame and octet statistics: fragments counted, chops written one by one', () => {
    assert.deepEqual(get(ws, '9.1.6').txFrameStats, { '1': 1, '8': 1 });
    assert.deepEqual(get(ws, '9.2.6').txFrameStats, { '2': 1, '8': 1 });
    // 4 MiB / 64 = 65536 full fragments and an empty final one.
    assert.deepEqual(get(ws, '9.3.1').txFrameStats, { '0': 65536, '1': 1, '8': 1 });
    assert.deepEqual(get(ws, '9.4.1').txFrameStats, { '0': 65536, '2': 1, '8': 1 });
    assert.deepEqual(get(ws, '9.3.8').txFrameStats, { '0': 4, '1': 1, '8': 1 });
    assert.deepEqual(get(ws, '9.4.9').txFrameStats, { '2': 1, '8': 1 });
    // The 1 MiB frame has 10 header bytes: 1048586 = 16384 × 64 + 10 = 512 × 2048 + 10.
    const chop64 = get(ws, '9.5.1').txOctetStats;
    assert.equal(chop64['64'], 16384);
    assert.equal(chop64['10'], 1);
    const chop2048 = get(ws, '9.6.6').txOctetStats;
    assert.equal(chop2048['2048'], 512);
    assert.equal(chop2048['10'], 1);
  });

  test('a client that cuts echoes to 1 MiB: FAILED "Expected ... length" on the bigger messages, OK on the rest', () => {
    for (const id of bigIds) {
      const r = get(truncating, id);
      assert.equal(r.behaviorClose, 'OK', id);
      assert.equal(r.remoteCloseCode, 1000, id);
      const sub = subgroup(id);
      const length =
        sub === '9.3' || sub === '9.4'
          ? 4 * MiB
          : sub === '9.5' || sub === '9.6'
            ? MiB
            : [64 * KiB, 256 * KiB, MiB, 4 * MiB, 8 * MiB, 16 * MiB][Number(id.split('.')[2]) - 1];
      const kind = sub === '9.1' || sub === '9.3' || sub === '9.5' ? 'text' : 'binary';
      if (length !== undefined && length > MiB) {
        assert.equal(r.behavior, 'FAILED', id);
        assert.equal(r.result, `Expected ${kind} message with payload of length ${length}, but got 1048576.`, id);
      } else {
        assert.equal(r.behavior, 'OK', id);
        assert.equal(r.result, `Received ${kind} message of length ${length}.`, id);
      }
    }
    assert.equal(get(truncating, '9.1.6').result, 'Expected text message with payload of length 16777216, but got 1048576.');
    assert.equal(get(truncating, '9.4.2').result, 'Expected binary message with payload of length 4194304, but got 1048576.');
  });
});
