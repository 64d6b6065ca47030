/**
 * A process of a server's tree that ended during a case while the tree's root lived on: a worker that
 * died of the attack (its supervisor hid the death by forking another), or one a pool retired by
 * design (Apache's MaxConnectionsPerChild, gunicorn's --max-requests: the worker exits with 0 and
 * another takes its place at once). Its exit status cannot be read: it is not wsgate's child, and
 * its parent reaps it within milliseconds. So it is told by what the peer said and did: a line of the
 * peer's output during the case that names an error or a fatal signal (the worker's uncaught
 * exception, the supervisor's "exited with code 1"), or no process taking its place, makes it a
 * crash; as many processes taking their places with no such line makes it a pool retiring workers.
 * A worker killed silently by a fatal signal under a supervisor that logs nothing passes for a
 * retired one: docs/robustness.md says so.
 */
import type { PeerMemory } from '../play/attack-figures.js';
import { crashEvidenceLine } from '../processes/crash.js';

/**
 * The window's memory with its ended processes judged (`endedAs`): `output` is the peer's output
 * during the case, or null where wsgate does not have it (a server it did not start).
 */
export function judgeEnded(memory: PeerMemory | null, output: string | null): PeerMemory | null {
  if (memory === null || !memory.measured || (memory.ended ?? []).length === 0) return memory;
  const ended = memory.ended ?? [];
  const evidence = output === null ? null : crashEvidenceLine(output);
  if (evidence !== null) return { ...memory, endedAs: { kind: 'crash', evidence: `the peer's output during the case: "${evidence}"` } };
  if ((memory.joined ?? 0) < ended.length) {
    const joined = memory.joined ?? 0;
    const none =
      joined === 0
        ? `no process took ${ended.length === 1 ? 'its place' : 'their places'}`
        : `only ${joined} ${joined === 1 ? 'process' : 'processes'} took the places of ${ended.length}`;
    return { ...memory, endedAs: { kind: 'crash', evidence: none } };
  }
  return { ...memory, endedAs: { kind: 'retired', output: output !== null } };
}
