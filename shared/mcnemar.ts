// The exact paired McNemar test over same-episode successes of two runs.
import type { EpisodeUnit } from './model';
import { naturalOrder } from './order';
import { counted } from './counts';

/** log(2π) */
const LOG_2PI = Math.log(2 * Math.PI);

/** log(n!) - log(sqrt(2πn) (n/e)^n), Stirling's error, for a whole n >= 1 (Loader 2000, as R's stirlerr). */
function stirlingError(n: number): number {
  if (n <= 15) {
    let factorial = 1;
    for (let i = 2; i <= n; i++) factorial *= i;
    return Math.log(factorial) - (n + 0.5) * Math.log(n) + n - LOG_2PI / 2;
  }
  const nn = n * n;
  const [s0, s1, s2, s3, s4] = [1 / 12, 1 / 360, 1 / 1260, 1 / 1680, 1 / 1188];
  if (n > 500) return (s0 - s1 / nn) / n;
  if (n > 80) return (s0 - (s1 - s2 / nn) / nn) / n;
  if (n > 35) return (s0 - (s1 - (s2 - s3 / nn) / nn) / nn) / n;
  return (s0 - (s1 - (s2 - (s3 - s4 / nn) / nn) / nn) / nn) / n;
}

/** x log(x / m) + m - x without its cancellation where x is near m (Loader 2000, as R's bd0). */
function deviance(x: number, m: number): number {
  if (Math.abs(x - m) < 0.1 * (x + m)) {
    let v = (x - m) / (x + m);
    let sum = (x - m) * v;
    let term = 2 * x * v;
    v *= v;
    for (let j = 1; j < 1000; j++) {
      term *= v;
      const next = sum + term / (2 * j + 1);
      if (next === sum) return next;
      sum = next;
    }
    return sum;
  }
  return x * Math.log(x / m) + m - x;
}

/** log P(X = k) for X ~ Binomial(n, 1/2), accurate to a few ulps of the probability (Loader's saddle point). */
function logBinomialHalf(k: number, n: number): number {
  if (k === 0 || k === n) return -n * Math.LN2;
  const lc = stirlingError(n) - stirlingError(k) - stirlingError(n - k) - deviance(k, n / 2) - deviance(n - k, n / 2);
  return lc - 0.5 * (LOG_2PI + Math.log(k) + Math.log1p(-k / n));
}

/**
 * Two-sided exact p-value: min(1, 2 * P(X <= min(b, c))) with X ~ Binomial(b + c, 1/2); 1 when b + c = 0.
 * The tail is its largest term, P(X = k) in log space, times the sum of the terms below it relative to that
 * one, added from the largest down until the rest cannot change the sum: steps of order sqrt(n), not n, and
 * within 1e-9 relative of the exact sum for any n, to 14 significant digits (below about 1e-308 it reads as 0).
 */
export function mcnemarExactP(b: number, c: number): number {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) throw new RangeError(`counts must be whole numbers, not ${b} and ${c}`);
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  let relative = 1;
  let sum = 1;
  for (let i = k; i > 0 && relative > sum * 1e-17; i--) {
    relative *= i / (n - i + 1);
    sum += relative;
  }
  // Rounded to the digits it is sure of: an exact 0.25 reads 0.25, not 0.25000000000000006.
  return Math.min(1, Number((2 * Math.exp(logBinomialHalf(k, n) + Math.log(sum))).toPrecision(14)));
}

export interface Excluded {
  id: string;
  /** Status on each side, null where the unit is not excluded there. */
  a: string | null;
  b: string | null;
}

export interface Discordant {
  id: string;
  winner: 'a' | 'b';
}

export interface McNemarTable {
  pairs: number;
  both: number;
  only_a: number;
  only_b: number;
  neither: number;
  statistic: number;
  p_value: number;
  excluded: Excluded[];
  discordant: Discordant[];
  /** Units ended on one side only while a run is live: they pair once the other side ends them. */
  undecided: string[];
  success_rate_a: number | null;
  success_rate_b: number | null;
}

export type Pairing = { ok: true; table: McNemarTable } | { ok: false; only_a: string[]; only_b: string[] };

/**
 * Pairs two runs' units by id. Finished runs whose id sets differ are refused with the ids on each side
 * alone; while either is live, an id on one side only is undecided. An excluded unit on either side
 * leaves the pairing on both sides and is listed. Only B's units are looked up by id: two summaries of
 * 500,000 seeds are paired in one map's memory, not two.
 */
export function pairUnits(a: EpisodeUnit[], b: EpisodeUnit[], live = false): Pairing {
  const right = new Map(b.map((u) => [u.id, u]));
  const paired: [EpisodeUnit, EpisodeUnit][] = [];
  const onlyA: string[] = [];
  for (const x of a) {
    const y = right.get(x.id);
    if (y) paired.push([x, y]);
    else onlyA.push(x.id);
  }
  const onlyB = paired.length === right.size ? [] : (() => {
    const inA = new Set(a.map((u) => u.id));
    return b.filter((u) => !inA.has(u.id)).map((u) => u.id);
  })();
  onlyA.sort(naturalOrder);
  onlyB.sort(naturalOrder);
  if (!live && (onlyA.length || onlyB.length)) return { ok: false, only_a: onlyA, only_b: onlyB };

  const table: McNemarTable = {
    pairs: 0, both: 0, only_a: 0, only_b: 0, neither: 0, statistic: 0, p_value: 1,
    excluded: [], discordant: [], undecided: [...onlyA, ...onlyB].sort(naturalOrder), success_rate_a: null, success_rate_b: null,
  };
  paired.sort(([x], [y]) => naturalOrder(x.id, y.id));
  for (const [x, y] of paired) {
    const id = x.id;
    if (!x.scored || !y.scored) {
      table.excluded.push({ id, a: x.scored ? null : x.status, b: y.scored ? null : y.status });
      continue;
    }
    table.pairs++;
    if (x.success && y.success) table.both++;
    else if (x.success) {
      table.only_a++;
      table.discordant.push({ id, winner: 'a' });
    } else if (y.success) {
      table.only_b++;
      table.discordant.push({ id, winner: 'b' });
    } else table.neither++;
  }
  table.statistic = Math.min(table.only_a, table.only_b);
  table.p_value = mcnemarExactP(table.only_a, table.only_b);
  if (table.pairs) {
    table.success_rate_a = (table.both + table.only_a) / table.pairs;
    table.success_rate_b = (table.both + table.only_b) / table.pairs;
  }
  return { ok: true, table };
}

export function formatP(p: number): string {
  if (p === 0) return '< 1e-300';
  if (p < 0.001) return p.toExponential(1);
  return String(Number(p.toPrecision(2)));
}

/** One plain sentence: "B wins 12 episodes that A fails and loses 3; p = 0.035", in the format's `unit`. */
export function verdict(table: McNemarTable, nameA: string, nameB: string, unit: string): string {
  if (table.pairs === 0) return `No ${unit} is scored on both sides yet.`;
  const head = `${nameB} wins ${counted(table.only_b, unit)} that ${nameA} fails and loses ${table.only_a}; p = ${formatP(table.p_value)}`;
  const meaning = table.p_value < 0.05 ? 'a real difference at the 5% level' : 'no evidence of a difference at the 5% level';
  return `${head}: ${meaning}.`;
}

/** One side of a paired test as the UI shows it. */
export interface PairedSide {
  /** The cell id, with @vNNN for a policy version. */
  id: string;
  name: string;
  format: string;
  /** What one of its units is called: "episode", "seed", "rollout", "sample", "trial". */
  unit: string;
  live: boolean;
}

/** The lists of a paired test, by name, and how many each holds. */
export type ListLengths = Partial<Record<'discordant' | 'excluded' | 'undecided' | 'only_a' | 'only_b', number>>;

export type PairedTest = (
  | { ok: true; a: PairedSide; b: PairedSide; table: McNemarTable }
  | { ok: false; a: PairedSide; b: PairedSide; only_a: string[]; only_b: string[] }
) & {
  /** Each list's whole length, where the test carries only its first LISTED_UNITS (the window's); absent: every list whole. */
  lengths?: ListLengths;
};

/**
 * The most units of each list a paired test carries to the window; its counts and p stay whole. 500,000
 * discordant seeds made a 20 MB reply, held serve's thread 0.6 s, and drew as many chips.
 */
export const LISTED_UNITS = 1000;

/** A paired test as the window gets it: each list cut to its first `most`, with its whole length said. */
export function listedForView(test: PairedTest, most = LISTED_UNITS): PairedTest {
  const lengths: ListLengths = {};
  const cut = <T>(name: keyof ListLengths, list: T[]): T[] => ((lengths[name] = list.length), list.slice(0, most));
  if (!test.ok) return { ...test, only_a: cut('only_a', test.only_a), only_b: cut('only_b', test.only_b), lengths };
  const t = test.table;
  return { ...test, table: { ...t, discordant: cut('discordant', t.discordant), excluded: cut('excluded', t.excluded), undecided: cut('undecided', t.undecided) }, lengths };
}
