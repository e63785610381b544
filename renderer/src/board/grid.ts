// The squares of one board: a column per model, a row per harness · condition · effort, a cell (or none)
// at each crossing; and the comparisons each square won, Holm-adjusted p below 0.05.
import type { BoardComparison } from '../../../shared/board';
import type { CellSummary } from '../../../shared/model';

export const SIGNIFICANT = 0.05;

export interface BoardGrid {
  columns: string[];
  rows: string[];
  /** The cell at row, column; null: no cell there. */
  at(row: number, column: number): CellSummary | null;
}

const unknown = (value: string | null) => value ?? '?';
export const rowOf = (cell: CellSummary) => [cell.labels.harness, cell.labels.condition, cell.labels.effort].map(unknown).join(' · ');

/** The grid of these cells (one board's); a crossing with two cells shows the one that changed last. */
export function gridOf(cells: CellSummary[]): BoardGrid {
  const columns = [...new Set(cells.map((c) => unknown(c.labels.model)))].sort();
  const rows = [...new Set(cells.map(rowOf))].sort();
  const squares = new Map<string, CellSummary>();
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
