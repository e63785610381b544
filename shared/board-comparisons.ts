// Which one-field differences between on-board cells are real: exact McNemar over the episodes both
// scored, Holm-corrected over the board, as the window and `cellwatch board` both read them.
import { BOARD_FIELDS, type BoardField } from './board';
import { outcomesOf, pairCounts } from './board-outcomes';
import { decideTime, holmLevel, type DecideTime } from './decide';
import { mcnemarExactP } from './mcnemar';
import type { CellLabels } from './model';
import { holmOfDistinct } from './stats';

/** An on-board cell as the comparisons need it. */
export interface BoardEntry {
  path: string;
  boardName: string;
  labels: CellLabels;
  /** Fields its board never compares across (its format's `board.apart`). */
  apart?: readonly BoardField[];
  /** Its units as shared/units.ts writes them: a board of 10,000 cells holds a million. */
  units: string;
  /** The units its plan holds, where known: how many its comparisons have left to decide. */
  planned?: number | null;
  /** One agent of a collection of several: its units are those of the collection's (at `path`) named `<agent>/...`. */
  agentOf?: { path: string; agent: string };
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
  /** When it would decide at its Holm level, where worked out (the window's listed comparisons). */
  decide?: DecideTime;
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

/** Each p-value's Holm level over the table (shared/decide.ts): equal p-values share their first rank. */
export function holmLevels(t: ComparisonTable): Float64Array {
  const counts = new Uint32Array(t.pValues.length);
  for (const id of t.p) counts[id] = (counts[id] as number) + 1;
  const levels = new Float64Array(t.pValues.length);
  let smaller = 0;
  let tie = -1;
  let tieSmaller = 0;
  for (const id of Array.from(t.pValues.keys()).sort((x, y) => (t.pValues[x] as number) - (t.pValues[y] as number))) {
    if (t.pValues[id] !== tie) {
      tie = t.pValues[id] as number;
      tieSmaller = smaller;
    }
    levels[id] = holmLevel(SIGNIFICANT, t.p.length, tieSmaller);
    smaller += counts[id] as number;
  }
  return levels;
}

/** The paired units a comparison's plans have left: the fewer planned less those paired; null where a plan is not known. */
export function unitsLeft(plannedA: number | null, plannedB: number | null, paired: number): number | null {
  return plannedA === null || plannedB === null ? null : Math.max(0, Math.min(plannedA, plannedB) - paired);
}

/** When the k-th comparison would decide (shared/decide.ts), its cells' plans by path: 0 where it has (its Holm p is below 0.05). */
export function decideAt(t: ComparisonTable, k: number, levels: Float64Array, plannedOf: (path: string) => number | null): DecideTime {
  const counts = { both: t.both[k] as number, only_a: t.onlyA[k] as number, only_b: t.onlyB[k] as number, neither: t.neither[k] as number };
  const paired = counts.both + counts.only_a + counts.only_b + counts.neither;
  const left = unitsLeft(plannedOf(t.paths[t.a[k] as number] as string), plannedOf(t.paths[t.b[k] as number] as string), paired);
  const time = decideTime(counts, levels[t.p[k] as number] as number, left);
  return (t.adjusted[t.p[k] as number] as number) < SIGNIFICANT ? { ...time, further: 0, futile: false } : time;
}

/** Each cell's group in one field: the cells of its board alike in every other field (those it may differ from in that one alone), in path order, and its place there. */
interface FieldGroups {
  groupOf: number[][];
  place: Int32Array;
  own: Int32Array;
  /** How many pairs its groups hold, those alike in the field too among them. */
  pairs: number;
}

function fieldGroups(ids: ReturnType<typeof labelIds>, field: BoardField, n: number): FieldGroups {
  const others = BOARD_FIELDS.filter((other) => other !== field).map((other) => ids.fields[other]);
  const groups = new Map<string, number[]>();
  const groupOf: number[][] = new Array(n);
  const place = new Int32Array(n);
  let pairs = 0;
  for (let i = 0; i < n; i++) {
    const key = `${ids.board[i]},${others.map((o) => o[i]).join(',')}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    // The cell pairs with each one already in its group.
    pairs += group.length;
    place[i] = group.length;
    group.push(i);
    groupOf[i] = group;
  }
  return { groupOf, place, own: ids.fields[field], pairs };
}

/** A table's columns, as long as the most pairs there can be, cut to those found. */
function columnsFor(most: number) {
  const make = () => new Int32Array(most);
  return { a: make(), b: make(), field: new Uint8Array(most), both: make(), onlyA: make(), onlyB: make(), neither: make(), leftOut: make(), p: make() };
}

/**
 * Every pair of cells of one board that differ in exactly one field, tested, Holm-adjusted over all of
 * them, by a then b in path order. Cells are grouped by all but one field, so only pairs that can differ
 * in that one are looked at; never across a field its board keeps apart (an ablation's own row). Each
 * cell's pairs are found in order (its groups' later cells merged), so the table needs no sorting.
 */
export function compareTable(entries: BoardEntry[]): ComparisonTable {
  const sorted = [...entries].sort((x, y) => byPath(x.path, y.path));
  const n = sorted.length;
  const outcomes = outcomesOf(sorted);
  const ids = labelIds(sorted);
  const groups = BOARD_FIELDS.map((field) => fieldGroups(ids, field, n));
  const columns = columnsFor(groups.reduce((sum, g) => sum + g.pairs, 0));
  const counts = new Int32Array(5);
  let count = 0;
  const pValues = new PValues();
  // The next later cell in each field's group of cell i.
  const next = new Int32Array(BOARD_FIELDS.length);
  for (let i = 0; i < n; i++) {
    const apart = (sorted[i] as BoardEntry).apart;
    for (let f = 0; f < groups.length; f++) {
      const g = groups[f] as FieldGroups;
      next[f] = apart?.includes(BOARD_FIELDS[f] as BoardField) ? (g.groupOf[i] as number[]).length : (g.place[i] as number) + 1;
    }
    for (;;) {
      // The least of the groups' next cells: a cell differing from i in one field is in that field's group alone.
      let field = -1;
      let j = n;
      for (let f = 0; f < groups.length; f++) {
        const group = (groups[f] as FieldGroups).groupOf[i] as number[];
        const at = next[f] as number;
        if (at < group.length && (group[at] as number) < j) {
          j = group[at] as number;
          field = f;
        }
      }
      if (field < 0) break;
      next[field] = (next[field] as number) + 1;
      const own = (groups[field] as FieldGroups).own;
      if (own[i] === own[j]) continue;
      pairCounts(outcomes, i, j, counts, 0);
      columns.a[count] = i;
      columns.b[count] = j;
      columns.field[count] = field;
      columns.both[count] = counts[0] as number;
      columns.onlyA[count] = counts[1] as number;
      columns.onlyB[count] = counts[2] as number;
      columns.neither[count] = counts[3] as number;
      columns.leftOut[count] = counts[4] as number;
      columns.p[count] = pValues.idOf(counts[1] as number, counts[2] as number);
      count++;
    }
  }
  const cut = <T extends Int32Array | Uint8Array>(column: T): T => (column.length === count ? column : (column.slice(0, count) as T));
  const perP = new Uint32Array(pValues.values.length);
  for (let k = 0; k < count; k++) perP[columns.p[k] as number] = (perP[columns.p[k] as number] as number) + 1;
  return {
    paths: sorted.map((e) => e.path),
    a: cut(columns.a),
    b: cut(columns.b),
    field: cut(columns.field),
    both: cut(columns.both),
    onlyA: cut(columns.onlyA),
    onlyB: cut(columns.onlyB),
    neither: cut(columns.neither),
    leftOut: cut(columns.leftOut),
    p: cut(columns.p),
    pValues: Float64Array.from(pValues.values),
    adjusted: holmOfDistinct(pValues.values, perP),
  };
}

/** A difference is real when its Holm-adjusted p is below this. */
export const SIGNIFICANT = 0.05;

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
