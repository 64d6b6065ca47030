/**
 * `--budget NAME=VALUE` (repeatable; the action's `budget` input, `run({ budgets })`): the robustness
 * profile's budgets, each a default in cases/data/budgets.ts. Sizes take B, KiB, MiB, GiB (or KB, MB,
 * GB: powers of 1000); times ms or s; `time` is a factor ("2" or "2x").
 */
import { z } from 'zod';
import { DEFAULT_BUDGETS, type RobustnessBudgets } from '../cases/data/budgets.js';
import { UsageError } from '../errors.js';

/** The names `--budget` takes, the field each sets, and how its value reads. */
const NAMES = {
  time: { field: 'timeScale', unit: 'factor' },
  message: { field: 'messageLimit', unit: 'size' },
  memory: { field: 'memoryGrowth', unit: 'size' },
  stall: { field: 'stallMs', unit: 'duration' },
} as const satisfies Record<string, { field: keyof RobustnessBudgets; unit: 'factor' | 'size' | 'duration' }>;

const SIZE_UNITS: Readonly<Record<string, number>> = { '': 1, b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, kb: 1e3, mb: 1e6, gb: 1e9 };
const TIME_UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, '': 1000 };

/** `--budget` values (already split per flag), over the defaults; an unknown name or a bad value is a UsageError. */
export function parseBudgets(values: readonly string[], robustness: boolean): RobustnessBudgets {
  if (values.length > 0 && !robustness) throw new UsageError("--budget sets the robustness profile's budgets: it goes with --robustness");
  const out: Record<keyof RobustnessBudgets, number> = { ...DEFAULT_BUDGETS };
  for (const value of values) {
    const eq = value.indexOf('=');
    const name = (eq < 0 ? value : value.slice(0, eq)).trim();
    const spec = (NAMES as Record<string, (typeof NAMES)[keyof typeof NAMES]>)[name];
    if (spec === undefined || eq < 0) {
      throw new UsageError(`--budget ${JSON.stringify(value)}: expected NAME=VALUE with NAME one of ${Object.keys(NAMES).join(', ')}`);
    }
    out[spec.field] = readValue(name, spec.unit, value.slice(eq + 1).trim());
  }
  return out;
}

const positive = z.number().finite().positive();

function readValue(name: string, unit: 'factor' | 'size' | 'duration', text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text);
  const units = unit === 'size' ? SIZE_UNITS : unit === 'duration' ? TIME_UNITS : { '': 1, x: 1 };
  const scale = m === null ? undefined : units[(m[2] ?? '').toLowerCase()];
  const n = m === null || scale === undefined ? Number.NaN : Number(m[1]) * scale;
  const ok = positive.safeParse(n);
  if (!ok.success || (unit === 'factor' && n > 100)) {
    const how = unit === 'size' ? 'a size such as 1MiB or 4096' : unit === 'duration' ? 'a time such as 30s or 500ms' : 'a factor from 0.1 to 100, such as 2';
    throw new UsageError(`--budget ${name}=${text}: expected ${how}`);
  }
  return unit === 'factor' ? n : Math.round(n);
}
