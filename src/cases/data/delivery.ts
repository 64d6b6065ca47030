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

/** One of the ways of writing. */
export type DeliveryMode = (typeof Delivery)[keyof typeof Delivery];

/** How each way of writing reads in a case description. */
export function deliveryPhrase(delivery: DeliveryMode): string {
  if (delivery === Delivery.perOctet) return 'written to TCP one byte at a time';
  if (delivery === Delivery.perFrame) return 'each frame written to TCP on its own';
  return 'all written to TCP at once';
}
