// The boards of listed cells: their on-board cells' scored episodes (as the read workers last read them,
// asked again only when a cell's row changed) and the comparisons between them. The window's Board view and `cellwatch board` both ask here.
import { compareBoard, type BoardEntry } from '../shared/board';
import type { CellSummary } from '../shared/model';
import { encodeUnits } from '../shared/units';
import type { BoardReport } from '../shared/contract';
import { readCell } from '../runners/read';
import { ADAPTERS } from '../runners';
import { mapLimited, PARALLEL_IO } from './concurrency';
import type { ContextOf } from './host-context';
import type { ReaderPool } from './roots/pool';

/** What of a row changes when its scored episodes may have. */
const versionOf = (cell: CellSummary) => `${cell.changedAt}:${cell.episodes.ended}:${cell.episodes.scored}:${cell.episodes.successes}`;

export class BoardReader {
  private readonly entries = new Map<string, { version: string; entry: BoardEntry }>();

  constructor(
    private readonly contextOf: ContextOf,
    /** The read workers: local cells are read again there, off this thread; remote ones over their host. */
    private readonly pool: ReaderPool,
  ) {}

  /** Every board of these cells with its comparisons, Holm-adjusted over all of them (runners/FORMATS.md). */
  async report(cells: CellSummary[]): Promise<BoardReport> {
    const on = cells.filter((c) => c.board === 'on' && c.boardName !== null);
    await this.readChanged(on);
    const entries = on.map((cell) => (this.entries.get(cell.id) as { entry: BoardEntry }).entry);
    const alive = new Set(on.map((c) => c.id));
    for (const id of this.entries.keys()) if (!alive.has(id)) this.entries.delete(id);
    const names = [...new Set(cells.flatMap((c) => (c.board !== null && c.boardName !== null ? [c.boardName] : [])))].sort();
    const comparisons = compareBoard(entries);
    const boardOf = new Map(entries.map((e) => [e.path, e.boardName]));
    return {
      boards: names.map((name) => {
        const format = (cells.find((c) => c.boardName === name) as CellSummary).format;
        return { name, format, rule: ADAPTERS[format].capabilities.board?.rule ?? '', comparisons: comparisons.filter((c) => boardOf.get(c.a) === name) };
      }),
    };
  }

  /** The scored episodes of each cell whose row changed since they were last read. */
  private async readChanged(cells: CellSummary[]): Promise<void> {
    const stale = cells.filter((cell) => this.entries.get(cell.id)?.version !== versionOf(cell));
    const keep = (cell: CellSummary, units: string) =>
      this.entries.set(cell.id, { version: versionOf(cell), entry: { path: cell.path, boardName: cell.boardName as string, labels: cell.labels, apart: ADAPTERS[cell.format].capabilities.board?.apart, units } });
    const local = new Map(stale.filter((c) => c.host === 'local').map((c) => [c.path, c]));
    // The read workers keep each cell's units from its last read (and the index cache's): nothing is read again here.
    await this.pool.units([...local.values()].map((c) => ({ dir: c.path, format: c.format })), (units) => units.forEach(([dir, list]) => keep(local.get(dir) as CellSummary, list)));
    await mapLimited(stale.filter((c) => c.host !== 'local'), PARALLEL_IO, async (cell) => keep(cell, encodeUnits((await readCell(cell.path, cell.format, this.contextOf(cell).read())).units)));
  }
}
