/**
 * yargs' "Unknown argument: case" as one line that says what was typed and what was probably meant:
 * "unknown option --case; did you mean --cases?". yargs' recommendCommands suggests commands only,
 * and its message names an option by its parsed key (`--no-such-flag` reads "such-flag, suchFlag").
 */

/** Levenshtein distance: insertions, deletions and substitutions, one each. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The known name closest to `name`, or null when none is close: a third of the name's length may
 * change (at least 1), so `--case` finds `--cases`, `--jbs` `--jobs` and `rn` `run`, but `--bogus`
 * and `-x` find nothing.
 */
export function nearest(name: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Math.max(1, Math.floor(name.length / 3)) + 1;
  for (const k of known) {
    const d = editDistance(name, k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
}

/**
 * The one line for yargs' unknown-argument `message`, or null when it is another message. `argv` is
 * what was typed; `options` the command's option names; `commands` the commands at this level
 * (none inside a command).
 */
export function unknownArgument(message: string, argv: readonly string[], options: readonly string[], commands: readonly string[]): string | null {
  const m = /^Unknown arguments?: (.*)$/.exec(message);
  if (m === null) return null;
  const names = new Set((m[1] ?? '').split(', '));
  // The first flag typed whose name (or, for --no-X, X) yargs did not know.
  for (const arg of argv) {
    if (arg === '--') break;
    const typed = /^--?([^=]+)/.exec(arg)?.[1];
    if (typed === undefined || !(names.has(typed) || names.has(typed.replace(/^no-/, '')))) continue;
    const dashes = arg.startsWith('--') ? '--' : '-';
    const guess = nearest(typed, options);
    return `unknown option ${dashes}${typed}${guess === null ? '' : `; did you mean --${guess}?`}`;
  }
  const word = [...names][0] ?? '';
  const guess = commands.length > 0 ? nearest(word, commands) : null;
  const what = commands.length > 0 ? 'command' : 'argument';
  return `unknown ${what} ${word}${guess === null ? '' : `; did you mean ${guess}?`}`;
}
