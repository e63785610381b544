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

/**
 * Each cell's episodes as three bit sets over one numbering of every episode id the cells hold (cell i's
 * words from `i * words`): ended, scored (ended and counted), succeeded (scored and a success). A pair's
 * counts are then a few popcounts a word, not a loop over its episodes.
 */
interface Outcomes {
  words: number;
  ended: Int32Array;
  scored: Int32Array;
  succeeded: Int32Array;
}

/** The set bits of a 32-bit word. */
function popcount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

/**
 * The paired counts of cells i and j over the episodes both scored (as shared/mcnemar's pairUnits pairs them),
 * and how many ended on one side only, written into `found` from `at` in that order.
 */
function pairCounts(o: Outcomes, i: number, j: number, found: Int32Array, at: number): void {
  let both = 0;
  let onlyA = 0;
  let onlyB = 0;
  let neither = 0;
  let leftOut = 0;
  for (let w = 0; w < o.words; w++) {
    const a = i * o.words + w;
    const b = j * o.words + w;
    const scored = (o.scored[a] as number) & (o.scored[b] as number);
    const winA = (o.succeeded[a] as number) & scored;
    const winB = (o.succeeded[b] as number) & scored;
    both += popcount(winA & winB);
    onlyA += popcount(winA & ~winB);
    onlyB += popcount(winB & ~winA);
    neither += popcount(scored & ~(winA | winB));
    leftOut += popcount((o.ended[a] as number) ^ (o.ended[b] as number));
  }
  found[at] = both;
  found[at + 1] = onlyA;
  found[at + 2] = onlyB;
  found[at + 3] = neither;
  found[at + 4] = leftOut;
}

/** `array`, or a copy of it twice as long where `needed` values do not fit. */
function withRoom(array: Int32Array<ArrayBuffer>, needed: number): Int32Array<ArrayBuffer> {
  if (needed <= array.length) return array;
  const grown = new Int32Array(Math.max(needed, array.length * 2));
  grown.set(array);
  return grown;
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
function outcomesOf(entries: BoardEntry[]): Outcomes {
  const index = new Map<string, number>();
  // Numbered ids by their number: a million units are then read without a string or a Map lookup each.
  const numbered: number[] = [];
  // Every cell's units in one list, as (episode number) * 4 + (1 ended, 2 scored, 3 succeeded): cell i's from starts[i].
  let units = new Int32Array(1 << 16);
  let length = 0;
  const starts = new Int32Array(entries.length + 1);
  entries.forEach((e, i) => {
    starts[i] = length;
    eachUnit(e.units, (start, end, success, scored) => {
      const number = smallNumber(e.units, start, end);
      let k = number >= 0 ? numbered[number] : undefined;
      if (k === undefined) {
        const id = e.units.slice(start, end);
        k = index.get(id);
        if (k === undefined) index.set(id, (k = index.size));
        if (number >= 0) numbered[number] = k;
      }
      units = withRoom(units, length + 1);
      units[length++] = k * 4 + (!scored ? 1 : success === '1' ? 3 : 2);
    });
  });
  starts[entries.length] = length;
  const words = Math.ceil(index.size / 32);
  const outcomes = { words, ended: new Int32Array(entries.length * words), scored: new Int32Array(entries.length * words), succeeded: new Int32Array(entries.length * words) };
  for (let i = 0; i < entries.length; i++) {
    for (let u = starts[i] as number; u < (starts[i + 1] as number); u++) {
      const unit = units[u] as number;
      const k = unit >>> 2;
      const at = i * words + (k >>> 5);
      const bit = 1 << (k & 31);
      outcomes.ended[at] = (outcomes.ended[at] as number) | bit;
      if ((unit & 3) >= 2) outcomes.scored[at] = (outcomes.scored[at] as number) | bit;
      if ((unit & 3) === 3) outcomes.succeeded[at] = (outcomes.succeeded[at] as number) | bit;
    }
  }
  return outcomes;
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
 * A board's comparisons as columns: the k-th compares cells `a[k]` and `b[k]` (places in `paths`, a before
 * b), in `field`, with its counts and its p-value's place in `pValues` and `adjusted`. Typed arrays cross
 * from a worker without a copy, and 180,000 comparisons print without an object each.
 */
export interface ComparisonTable {
  /** The compared cells' paths, in path order. */
  paths: string[];
  a: Int32Array;
  b: Int32Array;
  /** An index into BOARD_FIELDS. */
  field: Uint8Array;
  both: Int32Array;
  onlyA: Int32Array;
  onlyB: Int32Array;
  neither: Int32Array;
  leftOut: Int32Array;
  p: Int32Array;
  pValues: Float64Array;
  adjusted: Float64Array;
}

/** The buffers of a table's columns, for a worker to hand over without copying them. */
export function tableBuffers(t: ComparisonTable): ArrayBuffer[] {
  return [t.a, t.b, t.field, t.both, t.onlyA, t.onlyB, t.neither, t.leftOut, t.p, t.pValues, t.adjusted].map((column) => column.buffer as ArrayBuffer);
}

export function comparisonAt(t: ComparisonTable, k: number): BoardComparison {
  const p = t.p[k] as number;
  return {
    a: t.paths[t.a[k] as number] as string,
    b: t.paths[t.b[k] as number] as string,
    field: BOARD_FIELDS[t.field[k] as number] as BoardField,
    both: t.both[k] as number,
    only_a: t.onlyA[k] as number,
    only_b: t.onlyB[k] as number,
    neither: t.neither[k] as number,
    left_out: t.leftOut[k] as number,
    p_value: t.pValues[p] as number,
    p_adjusted: t.adjusted[p] as number,
  };
}

export const comparisonsOf = (t: ComparisonTable): BoardComparison[] => Array.from(t.a, (_, k) => comparisonAt(t, k));

/**
 * Every pair of cells of one board that differ in exactly one field, tested, Holm-adjusted over all of
 * them, by a then b in path order. Cells are grouped by all but one field, so only pairs that can differ
 * in that one are looked at; never across a field its board keeps apart (an ablation's own row).
 */
export function compareTable(entries: BoardEntry[]): ComparisonTable {
  const sorted = [...entries].sort((x, y) => byPath(x.path, y.path));
  const n = sorted.length;
  const outcomes = outcomesOf(sorted);
  const ids = labelIds(sorted);
  // Each pair found, 9 numbers: its cells' places, its field, its five counts, its p's id.
  let found = new Int32Array(9 << 12);
  let length = 0;
  const pValues = new PValues();
  BOARD_FIELDS.forEach((field, f) => {
    const others = BOARD_FIELDS.filter((other) => other !== field).map((other) => ids.fields[other]);
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
          found = withRoom(found, length + 9);
          found[length] = i;
          found[length + 1] = j;
          found[length + 2] = f;
          pairCounts(outcomes, i, j, found, length + 3);
          found[length + 8] = pValues.idOf(found[length + 4] as number, found[length + 5] as number);
          length += 9;
        }
      }
    }
  });
  const count = length / 9;
  const counts = new Uint32Array(pValues.values.length);
  for (let k = 0; k < count; k++) {
    const id = found[k * 9 + 8] as number;
    counts[id] = (counts[id] as number) + 1;
  }
  const adjusted = holmOfDistinct(pValues.values, counts);
  // By a, then b: a typed sort of (a, b, k) packed in one number, not 3 million comparator calls.
  const order = new Float64Array(count);
  for (let k = 0; k < count; k++) order[k] = ((found[k * 9] as number) * n + (found[k * 9 + 1] as number)) * count + k;
  order.sort();
  const place = new Int32Array(count);
  for (let r = 0; r < count; r++) place[r] = ((order[r] as number) % count) * 9;
  const column = <T extends Int32Array | Uint8Array>(make: new (length: number) => T, at: number): T => {
    const values = new make(count);
    for (let r = 0; r < count; r++) values[r] = found[(place[r] as number) + at] as number;
    return values;
  };
  return {
    paths: sorted.map((e) => e.path),
    a: column(Int32Array, 0),
    b: column(Int32Array, 1),
    field: column(Uint8Array, 2),
    both: column(Int32Array, 3),
    onlyA: column(Int32Array, 4),
    onlyB: column(Int32Array, 5),
    neither: column(Int32Array, 6),
    leftOut: column(Int32Array, 7),
    p: column(Int32Array, 8),
    pValues: Float64Array.from(pValues.values),
    adjusted,
  };
}

/** A difference is real when its Holm-adjusted p is below this. */
export const SIGNIFICANT = 0.05;

/** One board laid out: a column per value of one field, a row per value of the others, a cell (or none) at each crossing. */
export interface BoardGrid<C> {
  columns: string[];
  rows: string[];
  /** The cell at row, column; null: no cell there. */
  at(row: number, column: number): C | null;
}

const unknown = (value: string | null) => value ?? '?';
/** The fields a board's rows are made of when `across` makes its columns, in their order. */
export const downOf = (across: BoardField) => BOARD_FIELDS.filter((f) => f !== across);
const rowOf = (cell: Pick<CellSummary, 'labels'>, across: BoardField) => downOf(across).map((f) => unknown(cell.labels[f])).join(' · ');

/**
 * The grid of these cells (one board's): a column per value of `across` (the model, unless the user
 * chose another field), a row per value of the other three; a crossing with two cells shows the one that changed last.
 */
export function gridOf<C extends Pick<CellSummary, 'labels' | 'changedAt'>>(cells: C[], across: BoardField = 'model'): BoardGrid<C> {
  const columns = [...new Set(cells.map((c) => unknown(c.labels[across])))].sort();
  const rows = [...new Set(cells.map((c) => rowOf(c, across)))].sort();
  const squares = new Map<string, C>();
  for (const cell of cells) {
    const key = `${rowOf(cell, across)}\0${unknown(cell.labels[across])}`;
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

/** The real differences (adjusted p below 0.05) among these comparisons, by each cell they are part of. */
export function verdictsByPath(comparisons: BoardComparison[]): Map<string, Verdict[]> {
  const verdicts = new Map<string, Verdict[]>();
  const add = (path: string, verdict: Verdict) => (verdicts.get(path) ?? (verdicts.set(path, []), verdicts.get(path) as Verdict[])).push(verdict);
  for (const comparison of comparisons) {
    if (comparison.p_adjusted >= SIGNIFICANT) continue;
    add(comparison.a, { comparison, won: comparison.only_a > comparison.only_b, other: comparison.b });
    add(comparison.b, { comparison, won: comparison.only_b > comparison.only_a, other: comparison.a });
  }
  return verdicts;
}
