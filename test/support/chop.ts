/** Splits bytes at the given cut points (any order; duplicates and out-of-range points fold). */
export function chop<T extends Uint8Array>(data: T, cuts: number[]): T[] {
  const points = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((a, b) => a - b);
  const out: T[] = [];
  let prev = 0;
  for (const p of points) {
    out.push(data.subarray(prev, p) as T);
    prev = p;
  }
  out.push(data.subarray(prev) as T);
  return out;
}
