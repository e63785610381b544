// The board's statistics: success with its Wilson interval, and which one-field differences between
// on-board cells are real (exact McNemar over the episodes both scored, Holm-corrected over the board);
// and its grid, as the window and `cellwatch board` both lay it out.
import { mcnemarExactP } from './mcnemar';
import type { CellLabels, CellSummary } from './model';
import { eachUnit } from './units';

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
  /** Fields its board never compares across (its format's `board.apart`). */
  apart?: readonly BoardField[];
  /** Its units as shared/units.ts writes them: a board of 10,000 cells holds a million. */
  units: string;
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

/** A cell's outcome on each episode of its board, by the board's episode index: 0 absent, 1 not scored, 2 failed, 3 succeeded. */
type Outcomes = Uint8Array;


/** The paired counts over the episodes both scored (as shared/mcnemar's pairUnits pairs them), and how many ended on one side only. */
function pairCounts(a: Outcomes, b: Outcomes): Pick<BoardComparison, 'both' | 'only_a' | 'only_b' | 'neither' | 'left_out'> {
  let both = 0;
  let onlyA = 0;
  let onlyB = 0;
  let neither = 0;
  let leftOut = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    if (x === 0 || y === 0) {
      if (x !== y) leftOut++;
    } else if (x === 1 || y === 1) continue;
    else if (x === 3 && y === 3) both++;
    else if (x === 3) onlyA++;
    else if (y === 3) onlyB++;
    else neither++;
  }
  return { both, only_a: onlyA, only_b: onlyB, neither, left_out: leftOut };
}

/** Each cell's outcomes over one numbering of every episode id the cells hold. */
function outcomesOf(entries: BoardEntry[]): Map<string, Outcomes> {
  const index = new Map<string, number>();
  for (const e of entries) eachUnit(e.units, (id) => index.has(id) || index.set(id, index.size));
  return new Map(
    entries.map((e) => {
      const outcomes = new Uint8Array(index.size);
      eachUnit(e.units, (id, success, scored) => (outcomes[index.get(id) as number] = !scored ? 1 : success === '1' ? 3 : 2));
      return [e.path, outcomes];
    }),
  );
}

/** Paths in the order the board prints them: one collator, not one a comparison (ICU's localeCompare is slow). */
const byPath = new Intl.Collator().compare;

/** One p-value a discordant count: a board of thousands of pairs has few distinct ones. */
function memoized(exact: (b: number, c: number) => number): (b: number, c: number) => number {
  const known = new Map<number, number>();
  return (b, c) => {
    // Counts are below 2^26 each: one number keys a pair.
    const key = b * 67_108_864 + c;
    let p = known.get(key);
    if (p === undefined) known.set(key, (p = exact(b, c)));
    return p;
  };
}

/**
 * Every pair of cells of one board that differ in exactly one field, tested, Holm-adjusted over all of
 * them. Cells are grouped by all but one field, so only pairs that can differ in that one are looked at;
 * never across a field its board keeps apart (an ablation's own row).
 */
export function compareBoard(entries: BoardEntry[]): BoardComparison[] {
  const sorted = [...entries].sort((x, y) => byPath(x.path, y.path));
  const outcomes = outcomesOf(sorted);
  const rank = new Map(sorted.map((e, i) => [e.path, i]));
  /** Each comparison's place in the output, by its cells' ranks in path order. */
  const order: number[] = [];
  const p = memoized(mcnemarExactP);
  const found: BoardComparison[] = [];
  for (const field of BOARD_FIELDS) {
    const groups = new Map<string, BoardEntry[]>();
    for (const entry of sorted) {
      const key = JSON.stringify([entry.boardName, ...BOARD_FIELDS.filter((f) => f !== field).map((f) => entry.labels[f])]);
      const group = groups.get(key);
      if (group) group.push(entry);
      else groups.set(key, [entry]);
    }
    for (const group of groups.values()) {
      for (let i = 0; i < group.length; i++) {
        for (let j = i + 1; j < group.length; j++) {
          const a = group[i] as BoardEntry;
          const b = group[j] as BoardEntry;
          if (a.labels[field] === b.labels[field] || a.apart?.includes(field)) continue;
          const counts = pairCounts(outcomes.get(a.path) as Outcomes, outcomes.get(b.path) as Outcomes);
          found.push({ a: a.path, b: b.path, field, ...counts, p_value: p(counts.only_a, counts.only_b), p_adjusted: 1 });
          order.push((rank.get(a.path) as number) * sorted.length + (rank.get(b.path) as number));
        }
      }
    }
  }
  // By a, then b, in path order: a typed sort of (place, index) packed in one number, not 3 million comparator calls.
  const packed = Float64Array.from(order, (place, i) => place * found.length + i);
  packed.sort();
  const inOrder = Array.from(packed, (v) => found[v % found.length] as BoardComparison);
  const adjusted = holm(inOrder.map((c) => c.p_value));
  inOrder.forEach((c, i) => (c.p_adjusted = adjusted[i] as number));
  return inOrder;
}

/** A difference is real when its Holm-adjusted p is below this. */
export const SIGNIFICANT = 0.05;

/** One board laid out: a column per model, a row per harness · condition · effort, a cell (or none) at each crossing. */
export interface BoardGrid<C> {
  columns: string[];
  rows: string[];
  /** The cell at row, column; null: no cell there. */
  at(row: number, column: number): C | null;
}

const unknown = (value: string | null) => value ?? '?';
export const rowOf = (cell: Pick<CellSummary, 'labels'>) => [cell.labels.harness, cell.labels.condition, cell.labels.effort].map(unknown).join(' · ');

/** The grid of these cells (one board's); a crossing with two cells shows the one that changed last. */
export function gridOf<C extends Pick<CellSummary, 'labels' | 'changedAt'>>(cells: C[]): BoardGrid<C> {
  const columns = [...new Set(cells.map((c) => unknown(c.labels.model)))].sort();
  const rows = [...new Set(cells.map(rowOf))].sort();
  const squares = new Map<string, C>();
  for (const cell of cells) {
    const key = `${rowOf(cell)}\0${unknown(cell.labels.model)}`;
    const there = squares.get(key);
    if (!there || (cell.changedAt ?? 0) > (there.changedAt ?? 0)) squares.set(key, cell);
  }
  return { columns, rows, at: (row, column) => squares.get(`${rows[row]}\0${columns[column]}`) ?? null };
}

/** A real difference, from the side of the cell at `path`: whom it beat or lost to, by which field. */
export interface Verdict {
  comparison: BoardComparison;
  won: boolean;
  other: string;
}

/** The real differences a cell is part of (adjusted p below 0.05). */
export function verdictsOf(path: string, comparisons: BoardComparison[]): Verdict[] {
  return comparisons
    .filter((c) => c.p_adjusted < SIGNIFICANT && (c.a === path || c.b === path))
    .map((comparison) => {
      const mine = comparison.a === path ? comparison.only_a : comparison.only_b;
      const theirs = comparison.a === path ? comparison.only_b : comparison.only_a;
      return { comparison, won: mine > theirs, other: comparison.a === path ? comparison.b : comparison.a };
    });
}
