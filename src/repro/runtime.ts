/**
 * The body of every repro script `wsgate repro` writes. `reproRuntime` is written into the script as
 * source (Function.prototype.toString of the compiled function), so it must be self-contained: no
 * reference to anything outside it but its parameters and Node's globals (Buffer, console,
 * performance, process, timers, TextDecoder). Node's modules come in as `node`, the case as `DATA`.
 *
 * What it does: plays wsgate's recorded writes in order, each no earlier than its recorded time and
 * not before the peer has sent as many frame octets as it had then (waiting at most RX_WAIT_MS more);
 * parses what the peer sends as wsgate does (frames, masks, messages, UTF-8, permessage-deflate, the
 * close), prints it, and judges it with Autobahn's rules (play/verdict.ts, ported).
 */
import type * as NetModule from 'node:net';
import type * as CryptoModule from 'node:crypto';
import type * as ZlibModule from 'node:zlib';

/** An expected event: ['message', base64, binary], ['pong', base64] or ['timeout', tag]. */
export type RuntimeEvent = readonly ['message', string, boolean] | readonly ['pong', string] | readonly ['timeout', string];

/** What a script embeds of its case. */
export interface RuntimeData {
  id: string;
  /** The side under test: `client` (the script listens) or `server` (it connects). */
  role: 'client' | 'server';
  expect: { OK?: readonly RuntimeEvent[] | undefined; 'NON-STRICT'?: readonly RuntimeEvent[] | undefined };
  close: { closedByMe: boolean; closeCode: number[]; requireClean: boolean; closedByWrongEndpointIsFatal?: boolean | undefined };
  echo: 'length' | 'content' | null;
  needsDeflate: boolean;
  adjust: 'wrong-code-fails' | 'informational' | 'other' | null;
  /** wsgate's bytes, base64 (of gzip when blobGzip). */
  blob: string;
  blobGzip: boolean;
  /** [ms, peer frame octets, flags (1 handshake, 2 sync), blob offset, length, repeat pattern base64 | null, repeat length]. */
  writes: ReadonlyArray<readonly [number, number, number, number, number, string | null, number]>;
  marks: ReadonlyArray<readonly [number, number, string]>;
  end: readonly [number, number, 'abort' | 'after-flush', string | null] | null;
  /** The server under test's URL in the run (its upgrade request's Host and target). */
  url: string | null;
}

/** Node's modules the runtime uses. */
export interface RuntimeModules {
  net: typeof NetModule;
  crypto: typeof CryptoModule;
  zlib: typeof ZlibModule;
}

/** Runs one repro (see the file comment); sets process.exitCode (0 OK/OK, 1 otherwise) and prints the verdict. */
export function reproRuntime(DATA: RuntimeData, node: RuntimeModules, argv: readonly string[]): void {
  const { net, crypto, zlib } = node;
  /** How long a write waits past its time for peer octets the peer had sent by then in the run. */
  const RX_WAIT_MS = 2000;
  /** How long the repro waits for the peer to close TCP once wsgate's part is played. */
  const PEER_CLOSE_WAIT_MS = 10000;
  /** Lines printed of each side's frames and messages; the rest are counted. */
  const SHOWN = 40;
  const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
  const strict = new TextDecoder('utf-8', { fatal: true });

  interface Write { t: number; rx: number; handshake: boolean; sync: boolean; data: Buffer }
  interface Frame { fin: boolean; rsv: number; opcode: number; masked: boolean; payload: Buffer }
  interface Message { binary: boolean; data: Buffer }
  type Event = { kind: 'message'; data: Buffer; binary: boolean } | { kind: 'pong'; data: Buffer } | { kind: 'timeout'; tag: string };

  const rawBlob = Buffer.from(DATA.blob, 'base64');
  const blob = DATA.blobGzip ? zlib.gunzipSync(rawBlob) : rawBlob;
  const writes: Write[] = DATA.writes.map(([t, rx, flags, offset, length, pattern, repeatLength]) => {
    let data = blob.subarray(offset, offset + length);
    if (pattern !== null) {
      const p = Buffer.from(pattern, 'base64');
      const body = Buffer.alloc(repeatLength);
      for (let i = 0; i < repeatLength; i += p.length) p.copy(body, i, 0, Math.min(p.length, repeatLength - i));
      data = Buffer.concat([data, body]);
    }
    return { t, rx, handshake: (flags & 1) !== 0, sync: (flags & 2) !== 0, data };
  });
  const head = Buffer.concat(writes.filter((w) => w.handshake).map((w) => w.data)).toString('latin1');
  const frameWrites = writes.filter((w) => !w.handshake);

  // ---- printing ----
  let t0 = performance.now();
  const stamp = (): string => `+${(performance.now() - t0).toFixed(1)} ms`.padStart(12);
  const say = (at: string, line: string): void => console.log(`${at}  ${line}`);
  /** Says it in arrival order, behind the messages still being inflated (see later). */
  const sayLater = (line: string): void => {
    const at = stamp();
    later(() => say(at, line));
  };
  const utf8 = (b: Buffer): string | null => {
    try {
      return strict.decode(b);
    } catch {
      return null;
    }
  };
  /** Autobahn's asciiLogData: text when the first 64 bytes are UTF-8, else 0x and hex, cut past 60 bytes. */
  const logData = (b: Buffer): string => {
    const cut = b.length > 60;
    const text = utf8(cut ? b.subarray(0, 64) : b);
    if (text !== null) return text + (cut ? ' ...' : '');
    return `0x${b.subarray(0, 64).toString('hex')}${cut ? ' ...' : ''}`;
  };
  const show = (b: Buffer): string => {
    const text = utf8(b);
    if (text !== null) return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
    return `0x${b.subarray(0, 24).toString('hex')}${b.length > 24 ? '…' : ''}`;
  };
  const counts = { peer: 0, wsgate: 0 };
  const note = (who: 'peer' | 'wsgate', at: string, line: string): void => {
    counts[who] += 1;
    if (counts[who] <= SHOWN) say(at, `${who === 'peer' ? 'peer → ' : 'wsgate → '}${line}`);
    else if (counts[who] === SHOWN + 1) say(at, `(${who}: further frames and messages are counted, not shown)`);
  };
  const OPCODES: Record<number, string> = { 0: 'continuation', 1: 'text', 2: 'binary', 8: 'close', 9: 'ping', 10: 'pong' };
  const describeClose = (payload: Buffer): string => {
    if (payload.length === 0) return 'close (no code)';
    if (payload.length === 1) return `close with a 1-byte payload 0x${payload.toString('hex')}`;
    const reason = payload.subarray(2);
    return `close ${payload.readUInt16BE(0)}${reason.length > 0 ? ` ${show(reason)}` : ''}`;
  };

  // ---- frames ----
  /** An incremental frame reader: pushes whole frames (unmasked) to onFrame, whatever the TCP chunks. */
  const frameReader = (onFrame: (f: Frame) => void): ((chunk: Buffer) => void) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const take = (n: number): Buffer => {
      const out = Buffer.allocUnsafe(n);
      let at = 0;
      while (at < n) {
        const c = chunks[0] as Buffer;
        const k = Math.min(c.length, n - at);
        c.copy(out, at, 0, k);
        at += k;
        if (k === c.length) chunks.shift();
        else chunks[0] = c.subarray(k);
      }
      size -= n;
      return out;
    };
    /** The first n bytes (a frame header: n <= 14), copying only the chunks they span. */
    const peek = (n: number): Buffer => {
      const first = chunks[0] as Buffer;
      if (first.length >= n) return first.subarray(0, n);
      const spanned: Buffer[] = [];
      let got = 0;
      for (const c of chunks) {
        spanned.push(c);
        got += c.length;
        if (got >= n) break;
      }
      return Buffer.concat(spanned).subarray(0, n);
    };
    return (chunk) => {
      chunks.push(chunk);
      size += chunk.length;
      for (;;) {
        if (size < 2) return;
        const h = peek(Math.min(size, 14));
        const b0 = h[0] as number;
        const b1 = h[1] as number;
        let length = b1 & 0x7f;
        let at = 2;
        if (length === 126) {
          if (h.length < 4) return;
          length = h.readUInt16BE(2);
          at = 4;
        } else if (length === 127) {
          if (h.length < 10) return;
          length = Number(h.readBigUInt64BE(2));
          at = 10;
        }
        const masked = (b1 & 0x80) !== 0;
        const headLength = at + (masked ? 4 : 0);
        if (size < headLength + length) return;
        const mask = take(headLength).subarray(at);
        const payload = take(length);
        if (masked) for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] as number) ^ (mask[i & 3] as number);
        onFrame({ fin: (b0 & 0x80) !== 0, rsv: (b0 >> 4) & 7, opcode: b0 & 0x0f, masked, payload });
      }
    };
  };

  /**
   * A permessage-deflate inflater with context takeover (it reads no-context-takeover streams too),
   * for a compressor whose window is 2^windowBits bytes: a back-reference further back fails, as in wsgate.
   */
  const inflater = (windowBits: number): ((data: Buffer) => Promise<Buffer | null>) => {
    const inflate = zlib.createInflateRaw({ windowBits: Math.max(9, windowBits) });
    let broken = false;
    inflate.on('error', () => (broken = true));
    return (data) =>
      new Promise((resolve) => {
        if (broken) {
          resolve(null);
          return;
        }
        const out: Buffer[] = [];
        const onData = (c: Buffer): void => void out.push(c);
        // A stream that fails never calls the flush callback: the error ends the wait.
        const onError = (): void => resolve(null);
        inflate.on('data', onData);
        inflate.once('error', onError);
        inflate.write(Buffer.concat([data, Buffer.from([0x00, 0x00, 0xff, 0xff])]));
        inflate.flush(zlib.constants.Z_SYNC_FLUSH, () => {
          inflate.off('data', onData);
          inflate.off('error', onError);
          resolve(broken ? null : Buffer.concat(out));
        });
      });
  };

  // ---- what happens ----
  const received: Event[] = [];
  const peerMessages: Message[] = [];
  const sentMessages: Message[] = [];
  let deflateOn = false;
  let open = false;
  let tcpDone = false;
  let droppedByMe = false;
  let uncleanEnd: string | null = null;
  let peerClose: { code: number | null } | null = null;
  let order = 0;
  let ourCloseOrder: number | null = null;
  let peerCloseOrder: number | null = null;
  /** wsgate failed the connection (a protocol violation, invalid UTF-8): later messages are not delivered. */
  let failed = false;
  let rx = 0;
  /** Printing and events in arrival order, behind any message being inflated. */
  let chain: Promise<void> = Promise.resolve();
  const later = (fn: () => void | Promise<void>): void => {
    chain = chain.then(fn);
  };
  let peerInflate = inflater(15);
  /** The peer agreed to start each message afresh (no context takeover): a reference back into the last one fails. */
  let peerFresh: (() => (data: Buffer) => Promise<Buffer | null>) | null = null;
  const ourInflate = inflater(15);
  /** permessage-deflate as the 101 response agreed it: the peer's window is the one negotiated for its side. */
  const agree = (extensions: string | null): void => {
    deflateOn = /permessage-deflate/i.test(extensions ?? '');
    const side = DATA.role === 'client' ? 'client' : 'server';
    const bits = new RegExp(`${side}_max_window_bits\\s*=\\s*"?(\\d+)`, 'i').exec(extensions ?? '')?.[1];
    const windowBits = bits === undefined ? 15 : Number(bits);
    peerInflate = inflater(windowBits);
    peerFresh = new RegExp(`${side}_no_context_takeover`, 'i').test(extensions ?? '') ? () => inflater(windowBits) : null;
  };

  const violation = (at: string, what: string): void => {
    failed = true;
    later(() => say(at, `peer → protocol violation: ${what} (wsgate fails the connection)`));
  };

  let peerMessage: { binary: boolean; compressed: boolean; parts: Buffer[]; frames: number } | null = null;
  const onPeerFrame = (f: Frame): void => {
    const at = stamp();
    if (DATA.role === 'client' && !f.masked) return violation(at, `unmasked ${OPCODES[f.opcode] ?? `opcode ${f.opcode}`} frame from a client`);
    if (DATA.role === 'server' && f.masked) return violation(at, `masked ${OPCODES[f.opcode] ?? `opcode ${f.opcode}`} frame from a server`);
    if (f.opcode >= 8) {
      if (f.rsv !== 0) return violation(at, `control frame with RSV bits ${f.rsv}`);
      if (!f.fin) return violation(at, 'fragmented control frame');
      if (f.payload.length > 125) return violation(at, `control frame of ${f.payload.length} bytes`);
      const payload = f.payload;
      if (f.opcode === 8) {
        if (payload.length === 1) return violation(at, describeClose(payload));
        peerCloseOrder ??= ++order;
        peerClose ??= { code: payload.length >= 2 ? payload.readUInt16BE(0) : null };
        later(() => note('peer', at, describeClose(payload)));
      } else if (f.opcode === 9) later(() => note('peer', at, `ping ${show(payload)}`));
      else if (f.opcode === 10) {
        later(() => {
          note('peer', at, `pong ${show(payload)}`);
          received.push({ kind: 'pong', data: payload });
        });
      } else return violation(at, `reserved opcode ${f.opcode}`);
      return;
    }
    if (f.opcode > 2) return violation(at, `reserved opcode ${f.opcode}`);
    const compressedStart = f.opcode !== 0 && f.rsv === 4 && deflateOn;
    if (f.rsv !== 0 && !compressedStart) return violation(at, `RSV bits ${f.rsv} on a ${OPCODES[f.opcode] ?? ''} frame`);
    if (f.opcode === 0 && peerMessage === null) return violation(at, 'continuation frame with no message under way');
    if (f.opcode !== 0 && peerMessage !== null) return violation(at, 'new message before the previous one ended');
    peerMessage ??= { binary: f.opcode === 2, compressed: compressedStart, parts: [], frames: 0 };
    peerMessage.parts.push(f.payload);
    peerMessage.frames += 1;
    if (!f.fin) return;
    const m = peerMessage;
    peerMessage = null;
    const wire = Buffer.concat(m.parts);
    later(async () => {
      const data = m.compressed ? await (peerFresh?.() ?? peerInflate)(wire) : wire;
      const kind = m.binary ? 'binary' : 'text';
      const size = `${String(data?.length ?? '?')} bytes, ${m.frames} frame${m.frames === 1 ? '' : 's'}${m.compressed ? `, ${wire.length} compressed` : ''}`;
      if (data === null) {
        failed = true;
        note('peer', at, `${kind} message that does not inflate (${size}): wsgate fails the connection`);
        return;
      }
      if (!m.binary && utf8(data) === null) {
        failed = true;
        note('peer', at, `text message with invalid UTF-8 ${show(data)} (${size}): wsgate fails the connection (1007)`);
        return;
      }
      if (failed) {
        note('peer', at, `${kind} message ${show(data)} (${size}), after wsgate failed the connection: not delivered`);
        return;
      }
      note('peer', at, `${kind} message ${show(data)} (${size})`);
      if (DATA.echo !== null) peerMessages.push({ binary: m.binary, data });
      else received.push({ kind: 'message', data, binary: m.binary });
    });
  };

  let ourMessage: { binary: boolean; compressed: boolean; parts: Buffer[] } | null = null;
  const onOurFrame = (f: Frame): void => {
    const at = stamp();
    const bits = `${f.fin ? 'fin' : 'not fin'}${f.rsv !== 0 ? `, rsv ${f.rsv}` : ''}`;
    if (f.opcode === 8) {
      ourCloseOrder ??= ++order;
      later(() => note('wsgate', at, describeClose(f.payload)));
      return;
    }
    later(() => note('wsgate', at, `${OPCODES[f.opcode] ?? `opcode ${f.opcode}`} frame ${show(f.payload)} (${f.payload.length} bytes, ${bits})`));
    if (f.opcode > 2 || f.rsv > 4 || (f.opcode === 0) === (ourMessage === null)) return;
    ourMessage ??= { binary: f.opcode === 2, compressed: f.rsv === 4, parts: [] };
    ourMessage.parts.push(f.payload);
    if (!f.fin) return;
    const m = ourMessage;
    ourMessage = null;
    later(async () => {
      const data = m.compressed ? await ourInflate(Buffer.concat(m.parts)) : Buffer.concat(m.parts);
      if (data !== null) sentMessages.push({ binary: m.binary, data });
    });
  };
  const readPeer = frameReader(onPeerFrame);
  const readOurs = frameReader(onOurFrame);

  // ---- replaying wsgate's side ----
  let socket: NetModule.Socket | null = null;
  let next = 0;
  let nextMark = 0;
  let lastSent = 0;
  let waitTimer: NodeJS.Timeout | null = null;
  let lagNoted = false;
  let finished = false;
  let endTimer: NodeJS.Timeout | null = null;
  /** The server under test was reached (a script that cannot connect prints why and exits 2). */
  let connected = DATA.role === 'client';

  /** Whether something recorded at (t, needRx) may happen now; else a timer calls pump again. */
  const ready = (t: number, needRx: number): boolean => {
    const now = performance.now() - t0;
    if (now < t) {
      waitTimer = setTimeout(pump, Math.ceil(t - now));
      return false;
    }
    if (rx >= needRx) return true;
    const giveUp = Math.max(t, lastSent) + RX_WAIT_MS;
    if (now >= giveUp) {
      if (!lagNoted) sayLater(`(the peer has sent ${rx} of the ${needRx} frame octets it had sent by now in the run: going on without them)`);
      lagNoted = true;
      return true;
    }
    waitTimer = setTimeout(pump, Math.ceil(giveUp - now));
    return false;
  };

  const send = (data: Buffer): void => {
    if (socket === null || tcpDone) return;
    socket.write(data);
    lastSent = performance.now() - t0;
    readOurs(data);
  };

  function pump(): void {
    if (waitTimer !== null) clearTimeout(waitTimer);
    waitTimer = null;
    if (socket === null || tcpDone || !open) return;
    const s = socket;
    s.cork();
    try {
      for (;;) {
        const w = frameWrites[next];
        const m = DATA.marks[nextMark];
        if (m !== undefined && (w === undefined || m[0] < w.t)) {
          if (!ready(m[0], m[1])) return;
          nextMark += 1;
          const tag = m[2];
          const at = stamp();
          later(() => {
            say(at, `wsgate: timeout ${JSON.stringify(tag)} (the case's own event)`);
            received.push({ kind: 'timeout', tag });
          });
          continue;
        }
        if (w === undefined) {
          endTcp();
          return;
        }
        if (!ready(w.t, w.rx)) return;
        next += 1;
        if (w.sync) s.uncork();
        send(w.data);
        if (w.sync || frameWrites[next]?.sync === true) {
          setImmediate(pump);
          return;
        }
      }
    } finally {
      // Writes made together leave together (wsgate gathers a loop turn's small writes).
      process.nextTick(() => {
        while (s.writableCorked > 0) s.uncork();
      });
    }
  }

  /** wsgate's part is played: end TCP as it did, or wait for the peer to. */
  const endTcp = (): void => {
    if (socket === null || tcpDone || finished) return;
    const s = socket;
    if (DATA.end === null) {
      finished = true;
      endTimer = setTimeout(() => {
        if (tcpDone) return;
        sayLater(`(the peer did not close TCP within ${PEER_CLOSE_WAIT_MS / 1000} s of wsgate's last write: the repro drops it)`);
        droppedByMe = true;
        s.destroy();
      }, PEER_CLOSE_WAIT_MS);
      return;
    }
    const [t, needRx, how, unclean] = DATA.end;
    if (!ready(t, needRx)) return;
    finished = true;
    droppedByMe = true;
    uncleanEnd = unclean;
    sayLater(`wsgate ${how === 'abort' ? 'drops TCP' : 'closes TCP (FIN once its writes have left)'}${unclean !== null ? `: ${unclean}` : ''}`);
    // As wsgate: after the FIN has left, the socket goes (nothing the peer sends later is read).
    if (how === 'abort') s.destroy();
    else s.end(() => s.destroy());
  };

  const onPeerData = (chunk: Buffer): void => {
    // wsgate reads nothing once it has dropped TCP.
    if (droppedByMe) return;
    rx += chunk.length;
    readPeer(chunk);
    pump();
  };

  const onTcpClosed = (how: string): void => {
    if (tcpDone) return;
    tcpDone = true;
    if (waitTimer !== null) clearTimeout(waitTimer);
    if (endTimer !== null) clearTimeout(endTimer);
    if (!connected) return;
    if (!droppedByMe) sayLater(`peer ${how}`);
    void chain.then(judgeAndExit);
  };

  /** The case's connection: how it ends is the last thing the verdict needs. */
  const attach = (s: NetModule.Socket): void => {
    let reset = false;
    s.setNoDelay(true);
    s.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNRESET') reset = true;
      else if (connected) sayLater(`(socket error: ${err.message})`);
    });
    s.on('close', () => onTcpClosed(reset ? 'reset TCP' : 'closed TCP'));
  };

  /** Reads an HTTP head, then hands over; bytes after it, and everything once open, are frames. */
  const readHead = (s: NetModule.Socket, onHead: (head: string, rest: Buffer) => void): void => {
    let buffered = Buffer.alloc(0);
    let done = false;
    s.on('data', (chunk: Buffer) => {
      if (done) {
        if (open && s === socket) onPeerData(chunk);
        return;
      }
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      done = true;
      const headText = buffered.subarray(0, end + 4).toString('latin1');
      const rest = buffered.subarray(end + 4);
      buffered = Buffer.alloc(0);
      onHead(headText, rest);
    });
  };

  const headerOf = (text: string, name: string): string | null => {
    const m = new RegExp(`^${name}:[ \\t]*(.*?)[ \\t]*$`, 'im').exec(text);
    return m === null ? null : (m[1] as string);
  };
  const acceptFor = (key: string): string => crypto.createHash('sha1').update(key + GUID).digest('base64');

  // ---- judging (Autobahn's rules: play/verdict.ts) ----
  const sameEvent = (a: Event, e: RuntimeEvent): boolean => {
    if (a.kind !== e[0]) return false;
    if (a.kind === 'timeout') return a.tag === e[1];
    if (a.kind === 'message' && a.binary !== e[2]) return false;
    return a.data.equals(Buffer.from(e[1], 'base64'));
  };
  const echoOutcome = (): { behavior: string; result: string } => {
    if (DATA.needsDeflate && !deflateOn) return { behavior: 'UNIMPLEMENTED', result: 'permessage-deflate was not negotiated.' };
    for (const [i, p] of peerMessages.entries()) {
      const s = sentMessages[i];
      if (s === undefined) return { behavior: 'FAILED', result: `Echo ${i + 1}: the peer sent more messages than it was sent.` };
      if (p.binary !== s.binary) return { behavior: 'FAILED', result: `Echo ${i + 1}: ${p.binary ? 'binary' : 'text'} instead of ${s.binary ? 'binary' : 'text'}.` };
      if (p.data.length !== s.data.length) return { behavior: 'FAILED', result: `Echo ${i + 1}: ${p.data.length} bytes instead of ${s.data.length}.` };
      if (DATA.echo === 'content' && !p.data.equals(s.data)) return { behavior: 'FAILED', result: `Echo ${i + 1}: its content differs from what was sent.` };
    }
    if (sentMessages.length === 0 || peerMessages.length < sentMessages.length) {
      return { behavior: 'FAILED', result: `Received ${peerMessages.length} of ${sentMessages.length} echoes.` };
    }
    return { behavior: 'OK', result: 'Every message was echoed.' };
  };

  const judgeAndExit = (): void => {
    const closedByMe = ourCloseOrder !== null && (peerCloseOrder === null || ourCloseOrder < peerCloseOrder);
    const wasClean = peerClose !== null && uncleanEnd === null;
    const remoteCloseCode = peerClose?.code ?? null;
    const isServer = DATA.role === 'client';
    let { behavior, result } = DATA.echo !== null ? echoOutcome() : { behavior: 'FAILED', result: 'Actual events differ from any expected.' };
    for (const [outcome, list] of Object.entries(open ? DATA.expect : {})) {
      if (list === undefined) continue;
      if (list.length === received.length && received.every((e, i) => sameEvent(e, list[i] as RuntimeEvent))) {
        behavior = outcome;
        result = 'Actual events match at least one expected.';
        break;
      }
    }
    const c = DATA.close;
    let behaviorClose: string;
    let resultClose: string;
    if (!open) {
      behaviorClose = 'FAILED';
      resultClose = 'The WebSocket opening handshake was never completed!';
    } else {
      if (c.closedByMe !== closedByMe) [behaviorClose, resultClose] = ['FAILED', 'The connection was failed by the wrong endpoint'];
      else if (c.requireClean && !wasClean) [behaviorClose, resultClose] = ['UNCLEAN', 'The spec requires the connection to be failed cleanly here'];
      else if (remoteCloseCode !== null && !c.closeCode.includes(remoteCloseCode)) [behaviorClose, resultClose] = ['WRONG CODE', `The close code should have been ${c.closeCode.join(',')} or empty`];
      else if (!isServer && droppedByMe) [behaviorClose, resultClose] = ['FAILED BY CLIENT', 'It is preferred that the server close the TCP connection'];
      else [behaviorClose, resultClose] = ['OK', 'Connection was properly closed'];
      if (c.closedByWrongEndpointIsFatal === true && c.closedByMe !== closedByMe) behavior = 'FAILED';
    }
    if (DATA.adjust === 'wrong-code-fails' && behaviorClose === 'WRONG CODE') [behavior, result] = ['FAILED', resultClose];
    if (DATA.adjust === 'informational') [behavior, behaviorClose] = ['INFORMATIONAL', 'INFORMATIONAL'];
    const shown = received.map((e) => (e.kind === 'timeout' ? ['timeout', e.tag] : e.kind === 'pong' ? ['pong', logData(e.data)] : ['message', logData(e.data), e.binary]));
    const hidden = Math.max(0, counts.peer - SHOWN) + Math.max(0, counts.wsgate - SHOWN);
    console.log('');
    if (hidden > 0) console.log(`frames and messages not shown: ${hidden}`);
    console.log(`observed events: ${JSON.stringify(shown)}`);
    console.log(`peer close code: ${remoteCloseCode === null ? 'none' : String(remoteCloseCode)}`);
    console.log(`closed by wsgate's side: ${String(closedByMe)}; clean: ${String(wasClean)}; TCP dropped by wsgate's side: ${String(droppedByMe)}`);
    console.log(`behavior: ${result}`);
    console.log(`closing: ${resultClose}`);
    console.log(`verdict: ${behavior} / ${behaviorClose}`);
    process.exitCode = behavior === 'OK' && behaviorClose === 'OK' ? 0 : 1;
    // A looping driver asks for /updateReports after the case: a moment to answer it.
    if (server !== null) setTimeout(() => server?.close(), 500);
  };

  // ---- the two roles ----
  let server: NetModule.Server | null = null;
  if (DATA.role === 'client') {
    const port = argv[0] === undefined ? 9001 : Number(argv[0]);
    let served = false;
    server = net.createServer((conn) => {
      const connectedAt = performance.now();
      conn.on('error', () => undefined);
      readHead(conn, (text, rest) => {
        const target = /^GET (\S+)/.exec(text)?.[1] ?? '/';
        const accept = acceptFor(headerOf(text, 'Sec-WebSocket-Key') ?? '');
        // An Autobahn-style driver asks for the case count and the reports around the case itself.
        const count = target.startsWith('/getCaseCount');
        if (count || target.startsWith('/updateReports') || served) {
          conn.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
          // 0x81 0x01 "1": the case count; 0x88 0x02 0x03e8: close 1000. The peer's answer ends it.
          if (count) conn.write(Buffer.from([0x81, 0x01, 0x31]));
          conn.write(Buffer.from([0x88, 0x02, 0x03, 0xe8]));
          conn.on('data', () => conn.destroy());
          setTimeout(() => conn.destroy(), 2000).unref();
          return;
        }
        served = true;
        socket = conn;
        t0 = connectedAt;
        attach(conn);
        const offers = headerOf(text, 'Sec-WebSocket-Extensions');
        say(stamp(), `peer → upgrade request GET ${target}${offers !== null ? ` (offers ${offers})` : ''}`);
        const response = head.replace(/^(Sec-WebSocket-Accept:[ \t]*)\S+/im, `$1${accept}`);
        const extensions = headerOf(response, 'Sec-WebSocket-Extensions');
        agree(extensions);
        say(stamp(), `wsgate → ${response.split('\r\n')[0] ?? ''}${extensions !== null ? ` (${extensions})` : ''}`);
        // The response and the frames the case sends at once leave together, as from wsgate.
        conn.cork();
        conn.write(Buffer.from(response, 'latin1'));
        open = true;
        if (rest.length > 0) onPeerData(rest);
        pump();
        process.nextTick(() => {
          while (conn.writableCorked > 0) conn.uncork();
        });
      });
    });
    server.listen(port, '127.0.0.1', () => {
      const address = server?.address();
      const actual = typeof address === 'object' && address !== null ? address.port : port;
      console.log(`listening on ws://127.0.0.1:${actual}/ : point the client under test at it (any path)`);
    });
  } else {
    const url = new URL(argv[0] ?? DATA.url ?? 'ws://127.0.0.1:9001/');
    const port = url.port === '' ? 80 : Number(url.port);
    const hostPort = `${url.hostname}${url.port === '' ? '' : `:${url.port}`}`;
    const request = head.replace(/^GET \S+/, `GET ${url.pathname}${url.search}`).replace(/^(Host:[ \t]*)\S+/im, `$1${hostPort}`);
    const key = headerOf(request, 'Sec-WebSocket-Key') ?? '';
    const s = net.connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port }, () => {
      connected = true;
      t0 = performance.now();
      say(stamp(), `wsgate → upgrade request GET ${url.pathname}${url.search} to ${hostPort}`);
      s.write(Buffer.from(request, 'latin1'));
    });
    socket = s;
    attach(s);
    readHead(s, (text, rest) => {
      const status = text.split('\r\n')[0] ?? '';
      const extensions = headerOf(text, 'Sec-WebSocket-Extensions');
      say(stamp(), `peer → ${status}${extensions !== null ? ` (${extensions})` : ''}`);
      if (!/^HTTP\/1\.1 101\b/.test(status) || headerOf(text, 'Sec-WebSocket-Accept') !== acceptFor(key)) {
        say(stamp(), 'wsgate drops TCP: the opening handshake failed');
        droppedByMe = true;
        s.destroy();
        return;
      }
      agree(extensions);
      open = true;
      if (rest.length > 0) onPeerData(rest);
      pump();
    });
    s.on('error', (err: NodeJS.ErrnoException) => {
      if (!connected) {
        console.error(`cannot connect to ${url.href}: ${err.code ?? err.message}`);
        process.exitCode = 2;
      }
    });
  }
}
