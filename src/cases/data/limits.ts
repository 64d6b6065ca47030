/**
 * The sizes, splits and time limits of Autobahn's group 9 (case9_1_1.py … case9_7_X.py). Every case
 * sends big messages (or many small ones) and gives the peer WAITSECS seconds to echo them; only the
 * type and length of each echo are checked.
 */

const KiB = 1024;
const MiB = 1024 * KiB;

/** The text pattern of 9.1 and 9.5, repeated up to the message length. */
export const TEXT_PATTERN = 'BAsd7&jh23';
/** The binary pattern of 9.2 and 9.6: 00 fe 23 fa f0, repeated up to the message length. */
export const BINARY_PATTERN: Uint8Array = Uint8Array.of(0x00, 0xfe, 0x23, 0xfa, 0xf0);

/** A message of `length` bytes in one frame (9.1, 9.2). */
export interface SizeRow {
  readonly id: string;
  readonly length: number;
  /** Seconds the peer has to echo it (Autobahn's WAITSECS). */
  readonly waitSecs: number;
}

/** 9.1.x: text, "BAsd7&jh23" repeated. The first two sizes get 10 s, the rest 100 s. */
export const textSizes: readonly SizeRow[] = [
  { id: '9.1.1', length: 64 * KiB, waitSecs: 10 },
  { id: '9.1.2', length: 256 * KiB, waitSecs: 10 },
  { id: '9.1.3', length: 1 * MiB, waitSecs: 100 },
  { id: '9.1.4', length: 4 * MiB, waitSecs: 100 },
  { id: '9.1.5', length: 8 * MiB, waitSecs: 100 },
  { id: '9.1.6', length: 16 * MiB, waitSecs: 100 },
];

/** 9.2.x: binary, 00 fe 23 fa f0 repeated. Up to 4 MiB the peer gets 10 s, above that 100 s. */
export const binarySizes: readonly SizeRow[] = [
  { id: '9.2.1', length: 64 * KiB, waitSecs: 10 },
  { id: '9.2.2', length: 256 * KiB, waitSecs: 10 },
  { id: '9.2.3', length: 1 * MiB, waitSecs: 10 },
  { id: '9.2.4', length: 4 * MiB, waitSecs: 10 },
  { id: '9.2.5', length: 8 * MiB, waitSecs: 100 },
  { id: '9.2.6', length: 16 * MiB, waitSecs: 100 },
];

/** The message length of 9.3 and 9.4. */
export const FRAGMENTED_LENGTH = 4 * MiB;
/** The time limit of 9.3 and 9.4. */
export const FRAGMENTED_WAITSECS = 100;

/** A 4 MiB message sent as frames of `fragmentSize` bytes (9.3, 9.4). */
export interface FragmentRow {
  readonly id: string;
  readonly fragmentSize: number;
  /** The byte the payload repeats. */
  readonly fill: number;
}

// A message whose length is a multiple of the fragment size ends with an empty final frame (as
// Autobahn's sendMessage does): 64-byte fragments make 65536 full frames and one empty one; a fragment
// size of 4 MiB sends the message unfragmented.

/** 9.3.x: text, "*" (0x2a) repeated. */
export const textFragmentSizes: readonly FragmentRow[] = [
  { id: '9.3.1', fragmentSize: 64, fill: 0x2a },
  { id: '9.3.2', fragmentSize: 256, fill: 0x2a },
  { id: '9.3.3', fragmentSize: 1 * KiB, fill: 0x2a },
  { id: '9.3.4', fragmentSize: 4 * KiB, fill: 0x2a },
  { id: '9.3.5', fragmentSize: 16 * KiB, fill: 0x2a },
  { id: '9.3.6', fragmentSize: 64 * KiB, fill: 0x2a },
  { id: '9.3.7', fragmentSize: 256 * KiB, fill: 0x2a },
  { id: '9.3.8', fragmentSize: 1 * MiB, fill: 0x2a },
  { id: '9.3.9', fragmentSize: 4 * MiB, fill: 0x2a },
];

/** 9.4.x: binary. 9.4.1 repeats 0xfe; 9.4.2 onwards repeat 0x2a ("*"), as Autobahn's subclasses do. */
export const binaryFragmentSizes: readonly FragmentRow[] = [
  { id: '9.4.1', fragmentSize: 64, fill: 0xfe },
  { id: '9.4.2', fragmentSize: 256, fill: 0x2a },
  { id: '9.4.3', fragmentSize: 1 * KiB, fill: 0x2a },
  { id: '9.4.4', fragmentSize: 4 * KiB, fill: 0x2a },
  { id: '9.4.5', fragmentSize: 16 * KiB, fill: 0x2a },
  { id: '9.4.6', fragmentSize: 64 * KiB, fill: 0x2a },
  { id: '9.4.7', fragmentSize: 256 * KiB, fill: 0x2a },
  { id: '9.4.8', fragmentSize: 1 * MiB, fill: 0x2a },
  { id: '9.4.9', fragmentSize: 4 * MiB, fill: 0x2a },
];

/** The message length of 9.5 and 9.6. */
export const CHOPPED_LENGTH = 1 * MiB;
/** The time limit of 9.5 and 9.6. */
export const CHOPPED_WAITSECS = 1000;

/** A 1 MiB message in one frame, written to TCP `chopSize` bytes at a time (9.5, 9.6). */
export interface ChopRow {
  readonly id: string;
  readonly chopSize: number;
}

// The frame is 1048586 bytes (10 of header): 64-byte chops make 16384 writes of 64 bytes and one of 10.

/** 9.5.x: text, "BAsd7&jh23" repeated. */
export const textChopSizes: readonly ChopRow[] = [
  { id: '9.5.1', chopSize: 64 },
  { id: '9.5.2', chopSize: 128 },
  { id: '9.5.3', chopSize: 256 },
  { id: '9.5.4', chopSize: 512 },
  { id: '9.5.5', chopSize: 1024 },
  { id: '9.5.6', chopSize: 2048 },
];

/** 9.6.x: binary, 00 fe 23 fa f0 repeated. */
export const binaryChopSizes: readonly ChopRow[] = [
  { id: '9.6.1', chopSize: 64 },
  { id: '9.6.2', chopSize: 128 },
  { id: '9.6.3', chopSize: 256 },
  { id: '9.6.4', chopSize: 512 },
  { id: '9.6.5', chopSize: 1024 },
  { id: '9.6.6', chopSize: 2048 },
];

/** `count` messages of `length` bytes, each sent once the previous one came back (9.7 text, 9.8 binary). */
export interface RoundTripRow {
  /** The 9.7.x case (text, "*" repeated). */
  readonly textId: string;
  /** The 9.8.x case (binary, 0xfe repeated). */
  readonly binaryId: string;
  readonly length: number;
  readonly count: number;
  readonly waitSecs: number;
}

export const roundTrips: readonly RoundTripRow[] = [
  { textId: '9.7.1', binaryId: '9.8.1', length: 0, count: 1000, waitSecs: 60 },
  { textId: '9.7.2', binaryId: '9.8.2', length: 16, count: 1000, waitSecs: 60 },
  { textId: '9.7.3', binaryId: '9.8.3', length: 64, count: 1000, waitSecs: 60 },
  { textId: '9.7.4', binaryId: '9.8.4', length: 256, count: 1000, waitSecs: 120 },
  { textId: '9.7.5', binaryId: '9.8.5', length: 1024, count: 1000, waitSecs: 240 },
  { textId: '9.7.6', binaryId: '9.8.6', length: 4096, count: 1000, waitSecs: 480 },
];
