/**
 * A raw HTTP/2 exchange with the server under test (group 16): wsgate's own frames, for requests
 * Node's http2 will not send (an extended CONNECT without :scheme) and answers it will not read
 * (:status 101 is a stream error to it). The preface and an empty SETTINGS, the server's SETTINGS
 * acknowledged, then one extended CONNECT on stream 1 (END_HEADERS, no END_STREAM), its answer read.
 */
import type net from 'node:net';
import type { H2ProbeAnswer, H2ProbeRequest } from '../cases/h2-types.js';
import {
  decodeStatus,
  encodeH2Frame,
  H2_PREFACE,
  H2Flag,
  H2Frame,
  H2FrameReader,
  h2ErrorName,
  headerBlock,
  hpackBlock,
  parseSettings,
} from '../protocol/h2-frames.js';

/** The extended CONNECT's fields (RFC 8441 §4), in order. */
export function probeFields(scheme: string, authority: string, path: string): Array<[string, string]> {
  return [
    [':method', 'CONNECT'],
    [':protocol', 'websocket'],
    [':scheme', scheme],
    [':path', path],
    [':authority', authority],
    ['sec-websocket-version', '13'],
  ];
}

/** The probe on a connected socket; `log` gets what was sent and what came back, as report text. */
export function probeOnSocket(
  socket: net.Socket,
  fields: ReadonlyArray<readonly [string, string]>,
  request: H2ProbeRequest,
  timeoutMs: number,
  log: { sent: string[]; got: string[] },
): Promise<H2ProbeAnswer> {
  const sent = fields.filter(([name]) => !(request.omit ?? []).includes(name));
  let settings: Map<number, number> | null = null;
  let [status, reset, goaway]: [number | null, number | null, number | null] = [null, null, null];
  return new Promise((resolve) => {
    const reader = new H2FrameReader();
    let requested = false;
    const finish = (closed: boolean): void => {
      clearTimeout(timer);
      socket.removeAllListeners('data');
      if (!socket.destroyed) {
        // 0x8 CANCEL for the stream, then GOAWAY NO_ERROR: the probe is over.
        if (requested) socket.write(encodeH2Frame(H2Frame.RstStream, 0, 1, Buffer.from([0, 0, 0, 8])));
        socket.end(encodeH2Frame(H2Frame.GoAway, 0, 0, Buffer.alloc(8)));
        setTimeout(() => socket.destroy(), 200).unref();
      }
      resolve({ settings, status, reset, goaway, closed });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('error', () => undefined);
    socket.once('close', () => finish(true));
    socket.on('data', (chunk: Buffer) => {
      for (const f of reader.push(chunk)) {
        if (f.type === H2Frame.Settings && (f.flags & H2Flag.Ack) === 0) {
          settings ??= parseSettings(f.payload);
          log.got.push(settingsWords(f.payload));
          socket.write(encodeH2Frame(H2Frame.Settings, H2Flag.Ack, 0));
          if (!request.send) return finish(false);
          if (!requested) {
            requested = true;
            log.sent.push('HTTP/2 HEADERS', ...sent.map(([n, v]) => `${n}: ${v}`));
            socket.write(encodeH2Frame(H2Frame.Headers, H2Flag.EndHeaders, 1, hpackBlock(sent)));
          }
        } else if (f.type === H2Frame.Ping && (f.flags & H2Flag.Ack) === 0) {
          socket.write(encodeH2Frame(H2Frame.Ping, H2Flag.Ack, 0, f.payload));
        } else if (f.type === H2Frame.Headers && f.streamId === 1) {
          status = decodeStatus(headerBlock(f));
          log.got.push(`HEADERS :status: ${status ?? '?'}`);
          return finish(false);
        } else if (f.type === H2Frame.RstStream && f.streamId === 1) {
          reset = f.payload.readUInt32BE(0);
          log.got.push(`RST_STREAM ${h2ErrorName(reset)}`);
          return finish(false);
        } else if (f.type === H2Frame.GoAway) {
          goaway = f.payload.length >= 8 ? f.payload.readUInt32BE(4) : 0;
          log.got.push(`GOAWAY ${h2ErrorName(goaway)}`);
          return finish(false);
        }
      }
    });
    // An empty SETTINGS: the server's defaults hold for wsgate's side (RFC 9113 §3.4).
    socket.write(Buffer.concat([H2_PREFACE, encodeH2Frame(H2Frame.Settings, 0, 0)]));
  });
}

/** "SETTINGS 0x8=1 0x4=65535", for the report. */
function settingsWords(payload: Buffer): string {
  return `SETTINGS ${[...parseSettings(payload)].map(([id, v]) => `0x${id.toString(16)}=${v}`).join(' ')}`;
}
