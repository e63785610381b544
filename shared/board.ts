// The board's fields and its grid, as the window and `cellwatch board` both lay it out.
import { mergeProblems, problem, type AgentRow, type CellLabels, type CellSummary } from './model';
import { formatAddress } from './address';
import { listCost } from './cost';

export const BOARD_FIELDS = ['harness', 'model', 'condition', 'effort'] as const;
export type BoardField = (typeof BOARD_FIELDS)[number];

/** One board laid out: a column per value of one field, a row per value of the others, the cells at each crossing. */
export interface BoardGrid<C> {
  columns: string[];
  rows: string[];
  /** The cells at row, column: the one on the board first, then those that claim it too, then the rest; empty: none. */
  at(row: number, column: number): C[];
}

/** A square's row: a cell, or one agent of a collection that runs several (`of`: the collection, and the agent). */
export type BoardRow = CellSummary & { of?: { cell: CellSummary; agent: string } };

/** An agent's tokens at its collection's list price, where both are known, and where that comes from. */
function agentCost(cell: CellSummary, a: AgentRow): Pick<CellSummary, 'cost_usd_estimate' | 'cost_source'> {
  const { input, cached_input, output } = a.tokens;
  if (!cell.listPrice || input === null || output === null) return { cost_usd_estimate: null, cost_source: cell.listPrice ? 'no token counts in the files' : cell.cost_source };
  return { cost_usd_estimate: listCost(cell.listPrice, { input, cached: cached_input, output }), cost_source: cell.cost_source };
}

/**
 * The rows a board lays out: each cell as it is, but a collection of several agents as one row per agent,
 * each with its own figures, tokens and place (`<path>@<agent>`, as a paired test names that side), its
 * agent its harness, its tokens at the collection's list price; its board and reasons are the collection's.
 * What a provider billed the collection is not any one agent's.
 */
export function boardRows(cells: readonly CellSummary[]): BoardRow[] {
  if (!cells.some((c) => c.agents.length)) return cells as BoardRow[];
  return cells.flatMap((cell): BoardRow[] =>
    cell.agents.length
      ? cell.agents.map((a) => ({
          ...cell,
          id: `${cell.id}@${a.name}`,
          path: `${cell.path}@${a.name}`,
          name: `${cell.name}@${a.name}`,
          labels: { ...cell.labels, harness: a.name, model: a.model ?? cell.labels.model },
          budget: { ...cell.budget, used: a.episodes.ended, total: a.episodes.planned },
          episodes: a.episodes,
          success_rate: a.success_rate,
          reward: a.reward,
          tokens: a.tokens,
          ...agentCost(cell, a),
          cost_usd_billed: null,
          runnerCostUsd: null,
          agents: [],
          of: { cell, agent: a.name },
        }))
      : [cell],
  );
}

/** The row of the side `id` names: a cell's, or one agent's of a collection of several (`<cell id>@<agent>`). */
export function sideRow(cells: readonly CellSummary[], id: string): BoardRow | undefined {
  const cell = cells.find((c) => c.id === id);
  if (cell) return cell;
  const collection = cells.find((c) => c.agents.length && id.startsWith(`${c.id}@`));
  return collection && boardRows([collection]).find((row) => row.id === id);
}

const unknown = (value: string | null) => value ?? '?';
/** The fields a board's rows are made of when `across` makes its columns, in their order. */
export const downOf = (across: BoardField) => BOARD_FIELDS.filter((f) => f !== across);
const rowOf = (cell: Pick<CellSummary, 'labels'>, across: BoardField) => downOf(across).map((f) => unknown(cell.labels[f])).join(' · ');

type Square = Pick<CellSummary, 'labels' | 'changedAt' | 'board' | 'rivals' | 'path'>;
/** Where a cell goes in its square: on the board, claiming it beside others, the rest; the newest first, then by path. */
const placeOrder = (a: Square, b: Square) => {
  const rank = (c: Square) => (c.board === 'on' ? 0 : c.rivals.length ? 1 : 2);
  return rank(a) - rank(b) || (b.changedAt ?? 0) - (a.changedAt ?? 0) || a.path.localeCompare(b.path);
};

/**
 * The grid of these cells (one board's): a column per value of `across` (the model, unless the user
 * chose another field), a row per value of the other three; every cell at its crossing, none instead of another.
 */
export function gridOf<C extends Square>(cells: C[], across: BoardField = 'model'): BoardGrid<C> {
  const columns = [...new Set(cells.map((c) => unknown(c.labels[across])))].sort();
  const rows = [...new Set(cells.map((c) => rowOf(c, across)))].sort();
  const squares = new Map<string, C[]>();
  for (const cell of cells) {
    const key = `${rowOf(cell, across)}\0${unknown(cell.labels[across])}`;
    const there = squares.get(key);
    if (there) there.push(cell);
    else squares.set(key, [cell]);
  }
  for (const there of squares.values()) there.sort(placeOrder);
  return { columns, rows, at: (row, column) => squares.get(`${rows[row]}\0${columns[column]}`) ?? [] };
}

type Claimant = Pick<CellSummary, 'id' | 'host' | 'path' | 'board' | 'boardName' | 'labels' | 'agents'>;

/** A crossing: a board and its four fields. */
const crossingOf = (boardName: string, labels: CellLabels) => `${boardName}\0${unknown(labels.harness)}\0${unknown(labels.model)}\0${unknown(labels.condition)}\0${unknown(labels.effort)}`;

/** The crossings an on-board cell claims: its own, or one per agent of a collection of several (as boardRows places them). */
function crossingsOf(cell: Claimant): string[] {
  if (cell.board !== 'on' || cell.boardName === null) return [];
  if (!cell.agents.length) return [crossingOf(cell.boardName, cell.labels)];
  const board = cell.boardName;
  return cell.agents.map((a) => crossingOf(board, { ...cell.labels, harness: a.name, model: a.model ?? cell.labels.model }));
}

/**
 * The on-board cells that claim one crossing with others (a copied run folder, a backup, a second run under
 * one name, an agent's second collection): each one's id, and the places of the others. runners/FORMATS.md:
 * one cell, one place on the board.
 */
export function rivalsOf(cells: readonly Claimant[]): Map<string, string[]> {
  const claims = new Map<string, Claimant[]>();
  for (const cell of cells) {
    for (const crossing of crossingsOf(cell)) {
      const there = claims.get(crossing);
      if (there) there.push(cell);
      else claims.set(crossing, [cell]);
    }
  }
  const rivals = new Map<string, Set<string>>();
  for (const there of claims.values()) {
    if (there.length < 2) continue;
    for (const cell of there) {
      let others = rivals.get(cell.id);
      if (!others) rivals.set(cell.id, (others = new Set()));
      for (const other of there) if (other !== cell) others.add(formatAddress(other));
    }
  }
  return new Map([...rivals].map(([id, others]) => [id, [...others].sort()]));
}

/** The cell beside the others that claim its crossing: with any, it leaves the board, a problem of its own naming them. */
export function withRivals<C extends CellSummary>(cell: C, rivals: readonly string[] | undefined): C {
  if (!rivals?.length) return cell;
  const why = `${rivals.length === 1 ? 'another cell claims' : `${rivals.length} other cells claim`} its board crossing: ${rivals.join(', ')}`;
  const tip = 'move the copy out of the runs root, or name one of them nonstd_…; neither is compared until then';
  return { ...cell, board: 'off', board_reasons: [...cell.board_reasons, why], rivals: [...rivals], problems: mergeProblems(cell.problems, [problem(formatAddress(cell), why, { tip })]) };
}
