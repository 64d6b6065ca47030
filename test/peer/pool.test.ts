/**
 * peer/pool.ts: a process of a server's tree that ended during a case is a crash when the peer's
 * output names an error or a fatal signal, or when none took its place; a retired worker of a pool
 * when as many took their places and the output names neither. The pools themselves (a cluster whose
 * workers exit 0, and one whose workers throw) are run in test/robustness/floods.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judgeEnded } from '../../src/peer/pool.js';
import type { PeerMemory } from '../../src/play/attack-figures.js';
import { crashEvidenceLine } from '../../src/processes/crash.js';

const window = (ended: string[], joined: number): PeerMemory => ({
  measured: true,
  baselineBytes: 1,
  peakBytes: 1,
  growthBytes: 0,
  samples: 3,
  ended,
  joined,
});

test("a supervisor's or a worker's line that tells of a death is evidence; a graceful end is not", () => {
  const deaths = [
    'Worker (pid:4242) exited with code 1',
    'cluster: worker 12 died (status 3); forking another',
    '[notice] child pid 901 exit signal Segmentation fault (11)',
    'Worker (pid:77) was sent SIGKILL! Perhaps out of memory?',
    'Exit code: 137',
    "TypeError: Cannot read properties of undefined (reading 'x')",
  ];
  for (const line of deaths) assert.equal(crashEvidenceLine(`starting\n${line}\n`), line, line);
  const graceful = [
    'Worker (pid:4242) exited with code 0',
    'worker 12 exited (status 0); forking another',
    'Autorestarting worker after current request.',
    'Worker exiting (pid: 4242)',
    'status: ok (pid 4242)',
    'worker 9 was sent SIGTERM',
  ];
  for (const line of graceful) assert.equal(crashEvidenceLine(`${line}\n`), null, line);
  // An uncaught exception's stack ends with Node's footer: the error's own line is the evidence.
  assert.equal(crashEvidenceLine('/srv/app.js:3\n    throw e;\nError: boom\n    at x (/srv/app.js:3:5)\n\nNode.js v20.20.2\n'), 'Error: boom');
});

test('ended processes: replaced and unexplained is a retired worker; named in the output, or not replaced, a crash', () => {
  const two = ['pid 1, node', 'pid 2, node'];
  assert.deepEqual(judgeEnded(window(two, 2), 'listening\n'), { ...window(two, 2), endedAs: { kind: 'retired', output: true } });
  assert.deepEqual(judgeEnded(window(two, 3), null), { ...window(two, 3), endedAs: { kind: 'retired', output: false } });
  assert.deepEqual(judgeEnded(window(two, 2), 'Error: boom\nNode.js v20.20.2\n'), {
    ...window(two, 2),
    endedAs: { kind: 'crash', evidence: `the peer's output during the case: "Error: boom"` },
  });
  assert.deepEqual(judgeEnded(window(two, 1), ''), { ...window(two, 1), endedAs: { kind: 'crash', evidence: 'only 1 process took the places of 2' } });
  assert.deepEqual(judgeEnded(window(['pid 1, node'], 0), ''), {
    ...window(['pid 1, node'], 0),
    endedAs: { kind: 'crash', evidence: 'no process took its place' },
  });
  // Nothing ended: the window as it was.
  assert.deepEqual(judgeEnded(window([], 0), 'Error: boom'), window([], 0));
});
