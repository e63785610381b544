// The boards of listed cells: their on-board cells' scored episodes (as the read workers last read them, each
// worker sending its cells' to the one comparing) and the comparisons between them, worked out in a read
// worker and kept until a cell on a board changes, comes or goes. `cellwatch board` prints the whole table;
// the window gets each board's summary (a board of 10,000 cells holds 180,000 comparisons: too many to send
// every poll, or to list).
import { comparisonAt, decideAt, holmLevels, SIGNIFICANT, type BoardEntry, type ComparisonTable } from '../shared/board-comparisons';
import type { CellSummary } from '../shared/model';
import { boardRows, type BoardRow } from '../shared/board';
import { encodeUnits } from '../shared/units';
import type { BoardInfo, BoardReport } from '../shared/contract';
import { readCell } from '../runners/read';
import { ADAPTERS } from '../runners';
import { mapLimited, PARALLEL_IO } from './concurrency';
import type { ContextOf } from './place/context';
import type { ReaderPool } from './roots/pool';
import { isLocal } from '../shared/address';
import { HeldBytes } from './comparisons-json';

/** How many comparisons of a board the window lists, by Holm-adjusted p. */
export const LISTED = 500;

/** What of a row changes when its scored episodes, or its plan, may have. */
const versionOf = (cell: CellSummary) => `${cell.changedAt}:${cell.episodes.ended}:${cell.episodes.scored}:${cell.episodes.successes}:${cell.episodes.planned}`;

/** A board as its cells name it: its rule from its format. */
type BoardHead = Pick<BoardInfo, 'name' | 'format' | 'rule'>;
type BoardSummary = Omit<BoardInfo, keyof BoardHead>;

/** The comparisons as `board --json` prints them, their bytes as the worker writes them; the table once they all came. */
export interface ComparedJson {
  bytes: HeldBytes;
  table: Promise<ComparisonTable>;
}

/** One comparison of every on-board cell, and the boards' summaries once the window asked for them. */
interface Comparing {
  table: Promise<ComparisonTable>;
  /** Its JSON, for a reader made for `board --json`. */
  json: HeldBytes | null;
  boardOf: Map<string, string>;
  /** Each on-board cell's planned units, by path: how many its comparisons have left. */
  planned: Map<string, number | null>;
  summaries?: Map<string, BoardSummary>;
}

export class BoardReader {
  /** Each on-board cell's entry as last compared, and its row's version then; a remote cell's units with it (a local one's stay in its read worker). */
  private readonly entries = new Map<string, { version: string; entry: BoardEntry }>();
  private comparing: Comparing | null = null;
  /** The last comparison asked for: the next waits for it, and may take it. */
  private last: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly contextOf: ContextOf,
    /** The read workers: local cells' units are theirs, compared there; remote ones are read over their host. */
    private readonly pool: ReaderPool,
    /** Each comparison written as `board --json` prints it too, by the worker comparing (see `json`). */
    private readonly withJson = false,
  ) {}

  /** The comparisons of every board of these cells, Holm-adjusted over all of them (runners/FORMATS.md). */
  async table(cells: CellSummary[]): Promise<ComparisonTable> {
    return (await this.compare(cells)).table;
  }

  /** The comparisons of these cells as `board --json` prints them (a reader made `withJson`); their bytes are handed on once. */
  async json(cells: CellSummary[]): Promise<ComparedJson> {
    const { json, table } = await this.compare(cells);
    if (!json) throw new Error('this board reader compares without writing JSON');
    return { bytes: json, table };
  }

  /** Each board of these cells as the window shows it: its counts, its first LISTED comparisons, each cell's standing. */
  async report(cells: CellSummary[]): Promise<BoardReport> {
    const comparing = await this.compare(cells);
    const table = await comparing.table;
    comparing.summaries ??= boardSummaries(table, comparing.boardOf, (path) => comparing.planned.get(path) ?? null);
    const none: BoardSummary = { compared: 0, real: 0, comparisons: [], standing: {} };
    return { boards: headsOf(cells).map((head) => ({ ...head, ...(comparing.summaries?.get(head.name) ?? none) })) };
  }

  /**
   * Starts comparing these cells now, while their listing goes on (pricing, rivals): the next comparison
   * of the same cells, at the same versions, takes it. One that turns out off the board is compared again.
   */
  prefetch(cells: CellSummary[]): void {
    this.compare(cells).catch(() => undefined);
  }

  /** The comparison of the on-board cells as they are: the last one while none of them changed, came or went. */
  private compare(cells: CellSummary[]): Promise<Comparing> {
    const next = this.last.then(() => this.compareNow(cells));
    this.last = next.catch(() => undefined);
    return next;
  }

  private async compareNow(cells: CellSummary[]): Promise<Comparing> {
    // A collection of several agents is one row per agent (boardRows), each compared on its own units.
    const on = boardRows(cells).filter((c) => c.board === 'on' && c.boardName !== null);
    const { changed, remote } = this.update(on);
    // Nothing to wait for unless a remote cell changed: the workers are asked at once, before whatever the
    // caller does next (a listing's pricing) has the thread.
    if (remote.length) await mapLimited(remote, PARALLEL_IO, async (row) => this.keep(row, encodeUnits(await this.remoteUnits(row))));
    if (this.comparing && !changed) return this.comparing;
    const entries = on.map((cell) => (this.entries.get(cell.id) as { entry: BoardEntry }).entry);
    // A local cell's units are its read worker's, sent once however many of its agents are on the board.
    const held = [...new Map(on.filter((row) => isLocal(row.host)).map((row) => [row.of?.cell.path ?? row.path, { dir: row.of?.cell.path ?? row.path, format: row.format }])).values()];
    const json = this.withJson ? new HeldBytes() : null;
    const comparing: Comparing = {
      table: this.pool.compare(entries, held, json ?? undefined),
      json,
      boardOf: new Map(entries.map((e) => [e.path, e.boardName])),
      planned: new Map(entries.map((e) => [e.path, e.planned ?? null])),
    };
    this.comparing = comparing;
    // A comparison that failed (its worker stalled) is not kept: the next call compares again.
    comparing.table.catch(() => this.comparing === comparing && (this.comparing = null));
    return comparing;
  }

  /** A remote row's units, read from its host: the cell's, or its agent's. */
  private async remoteUnits(row: BoardRow) {
    const cell = row.of?.cell ?? row;
    const read = await readCell(cell.path, cell.format, this.contextOf(cell).read());
    return row.of ? (read.agentUnits?.[row.of.agent] ?? []) : read.units;
  }

  /** Takes each cell's row as it is now; whether any cell changed, came or went, and the remote ones whose units are to be read again. */
  private update(cells: BoardRow[]): { changed: boolean; remote: BoardRow[] } {
    const alive = new Set(cells.map((c) => c.id));
    let changed = false;
    for (const id of this.entries.keys()) {
      if (alive.has(id)) continue;
      this.entries.delete(id);
      changed = true;
    }
    const stale = cells.filter((cell) => this.entries.get(cell.id)?.version !== versionOf(cell));
    // A local cell's units are sent by its read worker to the one comparing.
    for (const cell of stale) if (isLocal(cell.host)) this.keep(cell, '');
    return { changed: changed || stale.length > 0, remote: stale.filter((c) => !isLocal(c.host)) };
  }

  private keep(cell: BoardRow, units: string): void {
    const agentOf = cell.of ? { path: cell.of.cell.path, agent: cell.of.agent } : undefined;
    const entry = { path: cell.path, boardName: cell.boardName as string, labels: cell.labels, apart: ADAPTERS[cell.format].capabilities.board?.apart, units, planned: cell.episodes.planned, ...(agentOf ? { agentOf } : {}) };
    this.entries.set(cell.id, { version: versionOf(cell), entry });
  }
}

/** The boards these cells belong to, on them or not, by name. */
function headsOf(cells: CellSummary[]): BoardHead[] {
  const formats = new Map<string, CellSummary['format']>();
  for (const c of cells) if (c.board !== null && c.boardName !== null && !formats.has(c.boardName)) formats.set(c.boardName, c.format);
  return [...formats].sort(([a], [b]) => a.localeCompare(b)).map(([name, format]) => ({ name, format, rule: ADAPTERS[format].capabilities.board?.rule ?? '' }));
}

/** Each board's summary of the table: one pass to count, one to pick the `listed` comparisons of lowest Holm-adjusted p. */
export function boardSummaries(table: ComparisonTable, boardOf: Map<string, string>, plannedOf: (path: string) => number | null, listed = LISTED): Map<string, BoardSummary> {
  const count = table.a.length;
  // The distinct adjusted p-values in order: a comparison's rank is its p's place among them.
  const order = Array.from(table.adjusted.keys()).sort((x, y) => (table.adjusted[x] as number) - (table.adjusted[y] as number));
  const rankOf = new Int32Array(order.length);
  order.forEach((id, rank) => (rankOf[id] = rank));
  const boards = new Map<string, BoardSummary & { perRank: Uint32Array; cutoff: number; atCutoff: number; picked: number[] }>();
  const boardAt = table.paths.map((path) => boardOf.get(path) ?? '');
  const ofA = (k: number) => {
    const name = boardAt[table.a[k] as number] as string;
    let board = boards.get(name);
    if (!board) boards.set(name, (board = { compared: 0, real: 0, comparisons: [], standing: {}, perRank: new Uint32Array(order.length), cutoff: 0, atCutoff: 0, picked: [] }));
    return board;
  };
  for (let k = 0; k < count; k++) {
    const board = ofA(k);
    const p = table.p[k] as number;
    board.compared++;
    const rank = rankOf[p] as number;
    board.perRank[rank] = (board.perRank[rank] as number) + 1;
    if ((table.adjusted[p] as number) >= SIGNIFICANT) continue;
    board.real++;
    const aWon = (table.onlyA[k] as number) > (table.onlyB[k] as number);
    const standing = (place: number) => (board.standing[table.paths[place] as string] ??= { won: 0, lost: 0 });
    standing(table.a[k] as number)[aWon ? 'won' : 'lost']++;
    standing(table.b[k] as number)[aWon ? 'lost' : 'won']++;
  }
  // The rank past which a board lists nothing, and how many of that rank it lists.
  for (const board of boards.values()) {
    let left = listed;
    while (board.cutoff < order.length && left > (board.perRank[board.cutoff] as number)) left -= board.perRank[board.cutoff++] as number;
    board.atCutoff = left;
  }
  for (let k = 0; k < count; k++) {
    const board = ofA(k);
    const rank = rankOf[table.p[k] as number] as number;
    if (rank > board.cutoff || (rank === board.cutoff && board.atCutoff-- <= 0)) continue;
    board.picked.push(k);
  }
  const levels = holmLevels(table);
  return new Map(
    [...boards].map(([name, { compared, real, standing, picked }]) => {
      const rank = (k: number) => rankOf[table.p[k] as number] as number;
      picked.sort((x, y) => rank(x) - rank(y) || x - y);
      return [name, { compared, real, standing, comparisons: picked.map((k) => ({ ...comparisonAt(table, k), decide: decideAt(table, k, levels, plannedOf) })) }];
    }),
  );
}
