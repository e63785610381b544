// Which one-field differences between on-board cells are real: exact McNemar over the episodes both
// scored, Holm-corrected over the board, as the window and `cellwatch board` both read them.
import { withRoom } from './arrays';
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
