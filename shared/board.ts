// The board's fields and its grid, as the window and `cellwatch board` both lay it out.
import type { CellSummary } from './model';

export const BOARD_FIELDS = ['harness', 'model', 'condition', 'effort'] as const;
export type BoardField = (typeof BOARD_FIELDS)[number];

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
