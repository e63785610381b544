// The board's statistics: success with its Wilson interval, and which one-field differences between
// on-board cells are real (exact McNemar over the episodes both scored, Holm-corrected over the board).
import { pairUnits } from './mcnemar';
import type { CellLabels, EpisodeUnit } from './model';

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

/** Holm's step-down adjustment of p-values, in their given order: each at most 1, never below a smaller p's. */
export function holm(pValues: number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}

export const BOARD_FIELDS = ['harness', 'model', 'condition', 'effort'] as const;
export type BoardField = (typeof BOARD_FIELDS)[number];

/** An on-board cell as the comparisons need it. */
export interface BoardEntry {
  path: string;
  boardName: string;
  labels: CellLabels;
  units: EpisodeUnit[];
}

export interface BoardComparison {
  a: string;
  b: string;
  field: BoardField;
  both: number;
  only_a: number;
  only_b: number;
  neither: number;
  /** Episodes ended on one side only, left out of the pairing. */
  left_out: number;
  p_value: number;
  p_adjusted: number;
}

/** The one field two cells' labels differ in; null when they differ in none or in more than one. */
export function onlyDifference(a: CellLabels, b: CellLabels): BoardField | null {
  const differ = BOARD_FIELDS.filter((field) => a[field] !== b[field]);
  return differ.length === 1 ? (differ[0] as BoardField) : null;
}

/** Every pair of cells of one board that differ in exactly one field, tested, Holm-adjusted over all of them. */
export function compareBoard(entries: BoardEntry[]): BoardComparison[] {
  const sorted = [...entries].sort((x, y) => x.path.localeCompare(y.path));
  const found: Omit<BoardComparison, 'p_adjusted'>[] = [];
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length; j++) {
      const a = sorted[i] as BoardEntry;
      const b = sorted[j] as BoardEntry;
      const field = a.boardName === b.boardName ? onlyDifference(a.labels, b.labels) : null;
      if (!field) continue;
      const pairing = pairUnits(a.units, b.units, true);
      if (!pairing.ok) continue;
      const { both, only_a, only_b, neither, p_value, undecided } = pairing.table;
      found.push({ a: a.path, b: b.path, field, both, only_a, only_b, neither, left_out: undecided.length, p_value });
    }
  }
  const adjusted = holm(found.map((c) => c.p_value));
  return found.map((c, i) => ({ ...c, p_adjusted: adjusted[i] as number }));
}
