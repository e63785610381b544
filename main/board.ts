// The boards of listed cells: their on-board cells' scored episodes (read again only when a cell's row
// changed) and the comparisons between them. The window's Board view and `cellwatch board` both ask here.
import { compareBoard, type BoardEntry } from '../shared/board';
import type { CellSummary } from '../shared/model';
import type { BoardReport } from '../shared/contract';
import { readCell } from '../runners/read';
import { ADAPTERS } from '../runners';
import { mapLimited, PARALLEL_IO } from './concurrency';
import type { ContextOf } from './host-context';

/** What of a row changes when its scored episodes may have. */
const versionOf = (cell: CellSummary) => `${cell.changedAt}:${cell.episodes.ended}:${cell.episodes.scored}:${cell.episodes.successes}`;

export class BoardReader {
  private readonly entries = new Map<string, { version: string; entry: BoardEntry }>();

  constructor(private readonly contextOf: ContextOf) {}

  /** Every board of these cells with its comparisons, Holm-adjusted over all of them (runners/FORMATS.md). */
  async report(cells: CellSummary[]): Promise<BoardReport> {
    const on = cells.filter((c) => c.board === 'on' && c.boardName !== null);
    const entries = await mapLimited(on, PARALLEL_IO, (cell) => this.entry(cell));
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

  private async entry(cell: CellSummary): Promise<BoardEntry> {
    const version = versionOf(cell);
    const known = this.entries.get(cell.id);
    if (known?.version === version) return known.entry;
    const read = await readCell(cell.path, cell.format, this.contextOf(cell).read());
    const entry: BoardEntry = { path: cell.path, boardName: cell.boardName as string, labels: cell.labels, units: read.units };
    this.entries.set(cell.id, { version, entry });
    return entry;
  }
}
