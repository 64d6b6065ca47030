/**
 * The glibc malloc settings wsgate's launchers give wsgate itself (the shebang of src/cli.ts, the
 * npm scripts, the image, the action), and the marker that says they did.
 *
 * Without them, glibc raises its mmap threshold to the size of the largest buffer freed so far (a
 * 16 MiB message of group 9), so every later buffer up to that size comes from the heap and the
 * freed ones stay in the process: over the whole catalogue that is 20-30 MiB of peak RSS. With a
 * fixed threshold, buffers over 128 KiB are mapped and unmapped on their own; two arenas keep
 * Node's worker threads from each holding one.
 *
 * The settings are for wsgate's process only: clients started by the gate get the environment
 * without them when the marker is set (a user's own MALLOC_* settings, without the marker, pass).
 */
export const MALLOC_TUNING: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
};

/** Set by a launcher alongside MALLOC_TUNING. */
export const TUNING_MARKER = 'WSGATE_MALLOC_TUNING';

/** The environment for a client: `env` without the launcher's malloc settings and marker. */
export function clientEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  const tuned = env[TUNING_MARKER] === '1';
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || name === TUNING_MARKER) continue;
    if (tuned && Object.hasOwn(MALLOC_TUNING, name)) continue;
    out[name] = value;
  }
  return out;
}
