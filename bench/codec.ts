/**
 * Throughput of the hot paths a 16 MiB message goes through: unmasking a client frame, reading it
 * through the frame reader, and validating its UTF-8. Printed by `npm run bench` as a table.
 */
import { FrameReader, type FrameSink } from '../src/protocol/frame-reader.js';
import { maskInPlace } from '../src/protocol/frame-writer.js';
import { encodeFrame } from '../test/support/frame-encoder.js';
import { Utf8Validator } from '../src/protocol/utf8.js';

const SIZE = 16 * 1024 * 1024;

/** Median MB/s of `fn` over `runs` runs on `bytes` bytes. */
function measure(bytes: number, runs: number, fn: () => void): number {
  const rates: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    const ms = performance.now() - t0;
    rates.push(bytes / 1024 / 1024 / (ms / 1000));
  }
  rates.sort((a, b) => a - b);
  return rates[Math.floor(rates.length / 2)] ?? NaN;
}

/** One table row per hot path: name and MB/s. */
export function codecThroughput(): Array<[string, number]> {
  const text = Buffer.alloc(SIZE, 'BAsd7&jh23');
  const mixed = Buffer.from('κόσμε Hello-µ@ßöäüàá-UTF-8!! '.repeat(SIZE / 40));
  const mask = Buffer.from([0x37, 0xfa, 0x21, 0x3d]);
  const work = Buffer.from(text);
  const masked = encodeFrame({ opcode: 1, payload: text, mask });
  const sink: FrameSink = { onViolation: () => undefined, onFrameBegin: () => undefined, onFrameData: () => undefined, onFrameEnd: () => undefined };
  const v = new Utf8Validator();
  return [
    ['unmask 16 MiB in place', measure(SIZE, 7, () => maskInPlace(work, mask))],
    [
      'read a masked 16 MiB frame (64 KiB chunks)',
      measure(SIZE, 7, () => {
        const reader = new FrameReader({ requireMask: true, compressionNegotiated: false, maxFramePayload: 0 });
        for (let i = 0; i < masked.length; i += 65536) reader.push(masked.subarray(i, i + 65536), sink);
      }),
    ],
    [
      'validate 16 MiB of ASCII UTF-8',
      measure(SIZE, 7, () => {
        v.reset();
        v.validate(text);
      }),
    ],
    [
      'validate 16 MiB of multi-byte UTF-8 (64 KiB chunks)',
      measure(mixed.length, 7, () => {
        v.reset();
        for (let i = 0; i < mixed.length; i += 65536) v.validate(mixed.subarray(i, i + 65536));
      }),
    ],
  ];
}
