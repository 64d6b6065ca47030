/** The liveness check the engine plays after every case of group 17 (drivers/server-attack.ts). */
import { closedByMe, defineCase, message } from '../cases/define.js';
import type { ScriptedCase } from '../cases/types.js';

/** What the liveness check sends (and the server must echo). */
const LIVENESS_TEXT = 'wsgate liveness check.';

/**
 * The liveness check after every group-17 case (not in the catalogue): a normal text message on a
 * fresh connection, echoed, then a clean close, as 1.1.2 asks of any server.
 */
export const livenessCase: ScriptedCase = defineCase({
  id: '17.0.1',
  description: 'Liveness: a text message of 22 bytes on a fresh connection, after an attack.',
  expectation: 'The server echoes it and closes the connection cleanly.',
  expect: { OK: [message(LIVENESS_TEXT)] },
  close: closedByMe(),
  schedule: { maxSeconds: 4 },
  run: (t) => {
    t.sendMessage(LIVENESS_TEXT);
    t.killAfter(2);
  },
});
