// The board's statistics: success with its Wilson interval, and which one-field differences between
// on-board cells are real (exact McNemar over the episodes both scored, Holm-corrected over the board);
// and its grid, as the window and `cellwatch board` both lay it out.
import { mcnemarExactP } from './mcnemar';
import type { CellLabels, CellSummary, EpisodeUnit } from './model';

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

type Outcomes = Map<string, EpisodeUnit>;

/** The paired counts over the episodes both scored (as shared/mcnemar's pairUnits pairs them), and how many ended on one side only. */
function pairCounts(a: Outcomes, b: Outcomes): Pick<BoardComparison, 'both' | 'only_a' | 'only_b' | 'neither' | 'left_out'> {
  const counts = { both: 0, only_a: 0, only_b: 0, neither: 0, left_out: 0 };
  for (const [id, x] of a) {
    const y = b.get(id);
    if (!y) counts.left_out++;
    else if (!x.scored || !y.scored) continue;
    else if (x.success && y.success) counts.both++;
    else if (x.success) counts.only_a++;
    else if (y.success) counts.only_b++;
    else counts.neither++;
  }
  for (const id of b.keys()) if (!a.has(id)) counts.left_out++;
  return counts;
}

/** One p-value a discordant count: a board of thousands of pairs has few distinct ones. */
function memoized(exact: (b: number, c: number) => number): (b: number, c: number) => number {
  const known = new Map<string, number>();
  return (b, c) => {
    const key = `${b},${c}`;
    let p = known.get(key);
    if (p === undefined) known.set(key, (p = exact(b, c)));
    return p;
  };
}

/**
 * Every pair of cells of one board that differ in exactly one field, tested, Holm-adjusted over all of
 * them. Cells are grouped by all but one field, so only pairs that can differ in that one are looked at.
 */
export function compareBoard(entries: BoardEntry[]): BoardComparison[] {
  const sorted = [...entries].sort((x, y) => x.path.localeCompare(y.path));
  const outcomes = new Map(sorted.map((e) => [e.path, new Map(e.units.map((u) => [u.id, u]))]));
  const p = memoized(mcnemarExactP);
  const found: Omit<BoardComparison, 'p_adjusted'>[] = [];
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
          if (a.labels[field] === b.labels[field]) continue;
          const counts = pairCounts(outcomes.get(a.path) as Outcomes, outcomes.get(b.path) as Outcomes);
          found.push({ a: a.path, b: b.path, field, ...counts, p_value: p(counts.only_a, counts.only_b) });
        }
      }
    }
  }
  found.sort((x, y) => x.a.localeCompare(y.a) || x.b.localeCompare(y.b));
  const adjusted = holm(found.map((c) => c.p_value));
  return found.map((c, i) => ({ ...c, p_adjusted: adjusted[i] as number }));
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
