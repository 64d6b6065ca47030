/**
 * A client whose close frame the server must refuse (RFC 6455 §7.4.1, §5.5.1): it echoes messages and
 * answers pings, but its close carries a code no endpoint may send, or a reason that is not UTF-8.
 *
 *   node bad-close-client.js MODE URL
 *   answer-1004        answers the server's close with 1004 (reserved)
 *   answer-bad-reason  answers the server's close with 1000 and the reason 0xff 0xfe (not UTF-8)
 *   first-999          closes first, with 999 (below the range), on the first message instead of echoing it
 */
import { runPeer } from '../fixtures/clients/raw-peer.js';

const [mode, url] = process.argv.slice(2);
if (url === undefined) throw new Error('usage: bad-close-client.js MODE URL');
// 0x03ec: 1004; 0x03e8 0xff 0xfe: 1000 and two bytes that are not UTF-8; 0x03e7: 999.
const ANSWER: Record<string, Buffer> = { 'answer-1004': Buffer.from([0x03, 0xec]), 'answer-bad-reason': Buffer.from([0x03, 0xe8, 0xff, 0xfe]) };
const FIRST = Buffer.from([0x03, 0xe7]);

let closing = false;
runPeer(url, (frame, peer) => {
  if (closing) return;
  if (frame.opcode === 8) {
    closing = true;
    peer.send(8, ANSWER[mode ?? ''] ?? frame.payload);
  } else if (frame.opcode === 9) {
    peer.send(10, frame.payload);
  } else if (frame.opcode === 1 || frame.opcode === 2) {
    if (mode === 'first-999') {
      closing = true;
      peer.send(8, FIRST);
    } else {
      peer.send(frame.opcode, frame.payload);
    }
  }
});
