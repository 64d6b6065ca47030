/**
 * The three ways Autobahn's cases hand their frames to TCP (the SYNC and CHOPSIZE fields of a TX FRAME
 * log line). A peer must not care: RFC 6455 frames are a byte stream, however TCP cuts it.
 */
import type { TxFrame } from '../types.js';

/** Frame options giving each way of writing. */
export const Delivery = {
  /** Every frame written at once: they usually reach the peer in one TCP segment ("one chop"). */
  together: {},
  /** Each frame a TCP write of its own, after the previous one flushed ("frame-wise chops"). */
  perFrame: { sync: true },
  /** Every byte a TCP write of its own ("octet-wise chops"). */
  perOctet: { chopSize: 1 },
} as const satisfies Record<string, Pick<TxFrame, 'sync' | 'chopSize'>>;

/**
 * How the gate schedules a case whose verdict is a race written one octet at a time: a valid message,
 * then at once an invalid frame, all per octet (3.4, 4.1.5, 4.2.5). A peer that reads ahead fails the
 * connection before or after it echoes the message (OK or NON-STRICT) depending on how far it lags
 * behind the octets; another case on the same peer at the same time makes it lag more. The original
 * plays every case alone, so these run alone (interop/README.md, "The read-ahead race").
 */
export const PER_OCTET_RACE_SCHEDULE = { runsAlone: true } as const;

/** One of the ways of writing. */
export type DeliveryMode = (typeof Delivery)[keyof typeof Delivery];

/** How each way of writing reads in a case description. */
export function deliveryPhrase(delivery: DeliveryMode): string {
  if (delivery === Delivery.perOctet) return 'written to TCP one byte at a time';
  if (delivery === Delivery.perFrame) return 'each frame written to TCP on its own';
  return 'all written to TCP at once';
}
