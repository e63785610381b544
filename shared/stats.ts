// A success rate's Wilson interval, and Holm's correction of many p-values: the board's statistics.

/** z for a two-sided 95 % interval: the 0.975 quantile of the standard normal. */
const Z95 = 1.959963984540054;

/** Wilson's 95 % score interval for k successes of n; null when n is 0. */
export function wilson95(k: number, n: number): [number, number] | null {
  if (n <= 0) return null;
  const p = k / n;
  const z2 = Z95 * Z95;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return [Math.max(0, center - half), Math.min(1, center + half)];
}

/**
 * Holm's step-down adjustment of each distinct p-value that occurs `counts[k]` times: at most 1, never below
 * a smaller p's. Tied p-values share one adjusted value (the first of a tie in rank sets it), so only the
 * distinct ones are sorted: a board's 180,000 p-values hold a few hundred.
 */
export function holmOfDistinct(distinct: readonly number[], counts: Uint32Array): Float64Array {
  const m = counts.reduce((sum, n) => sum + n, 0);
  const adjusted = new Float64Array(distinct.length);
  let rank = 0;
  let running = 0;
  for (const k of Array.from(distinct.keys()).sort((x, y) => (distinct[x] as number) - (distinct[y] as number))) {
    running = Math.max(running, Math.min(1, (m - rank) * (distinct[k] as number)));
    adjusted[k] = running;
    rank += counts[k] as number;
  }
  return adjusted;
}

/** Holm's step-down adjustment of p-values, in their given order: each at most 1, never below a smaller p's. */
export function holm(pValues: readonly number[]): number[] {
  const ids = new Map<number, number>();
  const idOf = pValues.map((p) => ids.get(p) ?? (ids.set(p, ids.size), ids.size - 1));
  const counts = new Uint32Array(ids.size);
  for (const id of idOf) counts[id] = (counts[id] as number) + 1;
  const adjusted = holmOfDistinct([...ids.keys()], counts);
  return idOf.map((id) => adjusted[id] as number);
}
