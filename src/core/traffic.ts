/**
 * Traffic statistics of one connection, as autobahn-python keeps them (TrafficStats): octets at
 * wire, WebSocket (payload, compressed) and application (uncompressed) level, data frames and
 * messages, each way. Groups 12 and 13 report them; their ratios are the compression ratios.
 */
import type { TrafficStats } from '../model/report.js';

/** Counters of one connection. Control frames and the handshake count only at wire level. */
export class TrafficCounters {
  outgoingOctetsWireLevel = 0;
  outgoingOctetsWebSocketLevel = 0;
  outgoingOctetsAppLevel = 0;
  outgoingWebSocketFrames = 0;
  outgoingWebSocketMessages = 0;
  incomingOctetsWireLevel = 0;
  incomingOctetsWebSocketLevel = 0;
  incomingOctetsAppLevel = 0;
  incomingWebSocketFrames = 0;
  incomingWebSocketMessages = 0;
  preopenOutgoingOctetsWireLevel = 0;
  preopenIncomingOctetsWireLevel = 0;

  /** The report's `trafficStats` object: the counters plus ratios (null where undefined). */
  snapshot(): TrafficStats {
    const ratio = (a: number, b: number): number | null => (b > 0 ? a / b : null);
    return {
      outgoingOctetsWireLevel: this.outgoingOctetsWireLevel,
      outgoingOctetsWebSocketLevel: this.outgoingOctetsWebSocketLevel,
      outgoingOctetsAppLevel: this.outgoingOctetsAppLevel,
      outgoingCompressionRatio: ratio(this.outgoingOctetsWebSocketLevel, this.outgoingOctetsAppLevel),
      outgoingWebSocketOverhead: ratio(this.outgoingOctetsWireLevel - this.outgoingOctetsWebSocketLevel, this.outgoingOctetsWebSocketLevel),
      outgoingWebSocketFrames: this.outgoingWebSocketFrames,
      outgoingWebSocketMessages: this.outgoingWebSocketMessages,
      preopenOutgoingOctetsWireLevel: this.preopenOutgoingOctetsWireLevel,
      incomingOctetsWireLevel: this.incomingOctetsWireLevel,
      incomingOctetsWebSocketLevel: this.incomingOctetsWebSocketLevel,
      incomingOctetsAppLevel: this.incomingOctetsAppLevel,
      incomingCompressionRatio: ratio(this.incomingOctetsWebSocketLevel, this.incomingOctetsAppLevel),
      incomingWebSocketOverhead: ratio(this.incomingOctetsWireLevel - this.incomingOctetsWebSocketLevel, this.incomingOctetsWebSocketLevel),
      incomingWebSocketFrames: this.incomingWebSocketFrames,
      incomingWebSocketMessages: this.incomingWebSocketMessages,
      preopenIncomingOctetsWireLevel: this.preopenIncomingOctetsWireLevel,
    };
  }
}
