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

/**
 * Holm's step-down adjustment of each distinct p-value that occurs `counts[k]` times: at most 1, never below
 * a smaller p's. Tied p-values share one adjusted value (the first of a tie in rank sets it), so only the
 * distinct ones are sorted: a board's 180,000 p-values hold a few hundred.
 */
function holmOfDistinct(distinct: readonly number[], counts: Uint32Array): Float64Array {
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

/** The number an id of a few digits writes (`"17"`), or -1 for any other id (`"017"`, `"task#2"`): most boards number their episodes. */
function smallNumber(text: string, start: number, end: number): number {
  if (end - start > 6 || end === start || (text.charCodeAt(start) === 48 && end - start > 1)) return -1;
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** Each cell's outcomes over one numbering of every episode id the cells hold, in the cells' order (one pass over their units). */
function outcomesOf(entries: BoardEntry[]): Outcomes[] {
  const index = new Map<string, number>();
  // Numbered ids by their number: a million units are then read without a string or a Map lookup each.
  const numbered: number[] = [];
  const read = entries.map((e) => {
    const at: number[] = [];
    const values: number[] = [];
    eachUnit(e.units, (start, end, success, scored) => {
      const number = smallNumber(e.units, start, end);
      let k = number >= 0 ? numbered[number] : undefined;
      if (k === undefined) {
        const id = e.units.slice(start, end);
        k = index.get(id);
        if (k === undefined) index.set(id, (k = index.size));
        if (number >= 0) numbered[number] = k;
      }
      at.push(k);
      values.push(!scored ? 1 : success === '1' ? 3 : 2);
    });
    return { at, values };
  });
  return read.map(({ at, values }) => {
    const outcomes = new Uint8Array(index.size);
    for (let i = 0; i < at.length; i++) outcomes[at[i] as number] = values[i] as number;
    return outcomes;
  });
}

/** Each entry's value of each board field (and its board) as a small number: groups are keyed by numbers, not texts. */
function labelIds(entries: BoardEntry[]): { board: Int32Array; fields: Record<BoardField, Int32Array> } {
  const numbering = () => {
    const ids = new Map<string | null, number>();
    return (value: string | null) => {
      let id = ids.get(value);
      if (id === undefined) ids.set(value, (id = ids.size));
      return id;
    };
  };
  const boardId = numbering();
  const fields = Object.fromEntries(BOARD_FIELDS.map((field) => {
    const id = numbering();
    return [field, Int32Array.from(entries, (e) => id(e.labels[field]))];
  })) as Record<BoardField, Int32Array>;
  return { board: Int32Array.from(entries, (e) => boardId(e.boardName)), fields };
}

/** Paths in the order the board prints them: one collator, not one a comparison (ICU's localeCompare is slow). */
const byPath = new Intl.Collator().compare;

/** Each distinct discordant count pair's p-value, computed once and named by its place in `values`: a board of thousands of pairs has few. */
class PValues {
  readonly values: number[] = [];
  private readonly known = new Map<number | string, number>();

  /** The id of the exact McNemar p of b and c discordant pairs. */
  idOf(b: number, c: number): number {
    // Below 2^15 each, one small integer keys the pair (a Map keyed by a double is slow).
    const key = b < 32_768 && c < 32_768 ? b * 32_768 + c : `${b},${c}`;
    let id = this.known.get(key);
    if (id === undefined) {
      this.known.set(key, (id = this.values.length));
      this.values.push(mcnemarExactP(b, c));
    }
    return id;
  }
}

/**
 * Every pair of cells of one board that differ in exactly one field, tested, Holm-adjusted over all of
 * them. Cells are grouped by all but one field, so only pairs that can differ in that one are looked at;
 * never across a field its board keeps apart (an ablation's own row).
 */
export function compareBoard(entries: BoardEntry[]): BoardComparison[] {
  const sorted = [...entries].sort((x, y) => byPath(x.path, y.path));
  const n = sorted.length;
  const outcomes = outcomesOf(sorted);
  const ids = labelIds(sorted);
  // Each pair found, as numbers: its cells' ranks in path order (a before b), its field, its counts and p.
  const pairs: { place: number; field: BoardField; counts: ReturnType<typeof pairCounts>; p: number }[] = [];
  const pValues = new PValues();
  for (const field of BOARD_FIELDS) {
    const others = BOARD_FIELDS.filter((f) => f !== field).map((f) => ids.fields[f]);
    const own = ids.fields[field];
    const groups = new Map<string, number[]>();
    for (let i = 0; i < n; i++) {
      const key = `${ids.board[i]},${others.map((o) => o[i]).join(',')}`;
      const group = groups.get(key);
      if (group) group.push(i);
      else groups.set(key, [i]);
    }
    for (const group of groups.values()) {
      for (let x = 0; x < group.length; x++) {
        const i = group[x] as number;
        if ((sorted[i] as BoardEntry).apart?.includes(field)) continue;
        for (let y = x + 1; y < group.length; y++) {
          const j = group[y] as number;
          if (own[i] === own[j]) continue;
          const counts = pairCounts(outcomes[i] as Outcomes, outcomes[j] as Outcomes);
          pairs.push({ place: i * n + j, field, counts, p: pValues.idOf(counts.only_a, counts.only_b) });
        }
      }
    }
  }
  const counts = new Uint32Array(pValues.values.length);
  for (const pair of pairs) counts[pair.p] = (counts[pair.p] as number) + 1;
  const adjusted = holmOfDistinct(pValues.values, counts);
  // By a, then b, in path order: a typed sort of (place, index) packed in one number, not 3 million comparator calls.
  const packed = Float64Array.from(pairs, (pair, k) => pair.place * pairs.length + k);
  packed.sort();
  return Array.from(packed, (v) => {
    const { place, field, counts: c, p } = pairs[v % pairs.length] as (typeof pairs)[number];
    const a = (sorted[Math.floor(place / n)] as BoardEntry).path;
    const b = (sorted[place % n] as BoardEntry).path;
    return { a, b, field, both: c.both, only_a: c.only_a, only_b: c.only_b, neither: c.neither, left_out: c.left_out, p_value: pValues.values[p] as number, p_adjusted: adjusted[p] as number };
  });
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
