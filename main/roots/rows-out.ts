// How the roots' rows go out to the windows: each as the process of a run launched there says (set by the
// core), off the board beside the rows of every root that claim its crossing, and said again when what
// decides that changed.
import type { CellsDelta, CellSummary } from '../../shared/model';
import type { EventHub } from '../events';
import { BoardClaims } from './claims';

export class RowsOut {
  /** Cells that claim one board crossing, over every root's rows. */
  private readonly claims = new BoardClaims();
  private presentRow: (row: CellSummary) => CellSummary = (row) => row;

  /** `rows`: each root's rows now, by its address. */
  constructor(
    private readonly events: EventHub,
    private readonly rows: () => Iterable<[string, CellSummary[]]>,
  ) {}

  /** A row as it goes out. */
  readonly present = (row: CellSummary) => this.claims.present(this.presentRow(row));

  presentWith(present: (row: CellSummary) => CellSummary): void {
    this.presentRow = present;
  }

  /** A root's changed rows out, and those of any root whose rivals changed with them. */
  send(delta: CellsDelta): void {
    const reclaimed = this.reclaim();
    this.events.emit('cellsChanged', { ...delta, added: delta.added.map(this.present), changed: delta.changed.map(this.present) });
    const sent = new Set([...delta.added, ...delta.changed].map((c) => c.id));
    this.restate(reclaimed.filter((id) => !sent.has(id)));
  }

  /** Works out the claimed crossings again; the ids of the cells whose rivals changed. */
  reclaim(): string[] {
    return this.claims.reclaim([...this.rows()].flatMap(([, rows]) => rows));
  }

  /** The rows of these cells go out again: what decides how they are presented changed. */
  restate(cellIds: string[]): void {
    if (!cellIds.length) return;
    const ids = new Set(cellIds);
    for (const [root, rows] of this.rows()) {
      const changed = rows.filter((row) => ids.has(row.id)).map(this.present);
      if (changed.length) this.events.emit('cellsChanged', { root, added: [], changed, removed: [] });
    }
  }
}
