/**
 * The frames of Autobahn's group 4 (case4_1_*.py, case4_2_*.py): one frame with a reserved opcode,
 * either alone or between a valid text message and a ping. RFC 6455 §5.2 reserves %x3-7 for further
 * non-control frames (4.1.x) and %xB-F for further control frames (4.2.x).
 */
import { Delivery, type DeliveryMode } from './delivery.js';

/** One reserved-opcode case. */
export interface ReservedOpcodeCase {
  readonly id: string;
  readonly opcode: number;
  /** Payload of the reserved-opcode frame ('' for none). */
  readonly payload: string;
  /**
   * A valid text message "Hello, world!" goes first and an empty ping after: the peer should echo the
   * message, then fail the connection and never answer the ping.
   */
  readonly betweenMessageAndPing: boolean;
  /** How all frames of the case are written. */
  readonly delivery: DeliveryMode;
}

export const reservedOpcodeCases: readonly ReservedOpcodeCase[] = [
  { id: '4.1.1', opcode: 3, payload: '', betweenMessageAndPing: false, delivery: Delivery.together },
  { id: '4.1.2', opcode: 4, payload: 'reserved opcode payload', betweenMessageAndPing: false, delivery: Delivery.together },
  { id: '4.1.3', opcode: 5, payload: '', betweenMessageAndPing: true, delivery: Delivery.together },
  { id: '4.1.4', opcode: 6, payload: 'Hello, world!', betweenMessageAndPing: true, delivery: Delivery.together },
  { id: '4.1.5', opcode: 7, payload: 'Hello, world!', betweenMessageAndPing: true, delivery: Delivery.perOctet },
  { id: '4.2.1', opcode: 11, payload: '', betweenMessageAndPing: false, delivery: Delivery.together },
  { id: '4.2.2', opcode: 12, payload: 'reserved opcode payload', betweenMessageAndPing: false, delivery: Delivery.together },
  { id: '4.2.3', opcode: 13, payload: '', betweenMessageAndPing: true, delivery: Delivery.together },
  { id: '4.2.4', opcode: 14, payload: 'Hello, world!', betweenMessageAndPing: true, delivery: Delivery.together },
  { id: '4.2.5', opcode: 15, payload: 'Hello, world!', betweenMessageAndPing: true, delivery: Delivery.perOctet },
];
