// One local root's cells as last read, and the delta each new read of them makes.
import { mergeProblems, type CellsDelta, type CellSummary, type Problem } from '../../shared/model';
import type { CellRead } from '../../runners';
import { summaryOf } from '../../runners/read';

export class CellTable {
  readonly cells = new Map<string, CellSummary>();
  /** Whether a row changed since the table was last saved. */
  unsaved = false;

  constructor(private readonly root: string) {}

  list(): CellSummary[] {
    return [...this.cells.values()].sort((a, b) => a.path.localeCompare(b.path));
  }

  /** Rows a first scan hands over, from its reads or the cache: added as they are. */
  add(rows: CellSummary[]): void {
    rows.forEach((row) => this.cells.set(row.path, row));
  }

  /** Rows that gain their event logs' problems, found after the rows are out: each cell whose row changed. */
  addLogProblems(found: { dir: string; problems: Problem[] }[]): CellSummary[] {
    const changed = found.flatMap(({ dir, problems }) => {
      const cell = this.cells.get(dir);
      const merged = cell ? mergeProblems(cell.problems, problems) : undefined;
      return cell && merged !== cell.problems ? [{ ...cell, problems: merged as Problem[] }] : [];
    });
    changed.forEach((cell) => this.cells.set(cell.path, cell));
    if (changed.length) this.unsaved = true;
    return changed;
  }

  /** A cell read again (its folder still there): added or changed in `delta`. */
  keep(read: CellRead, delta: CellsDelta): void {
    this.unsaved = true;
    const summary = summaryOf(read, this.root);
    const before = this.cells.get(summary.path);
    this.cells.set(summary.path, summary);
    if (!before) delta.added.push(summary);
    else if (JSON.stringify(before) !== JSON.stringify(summary)) delta.changed.push(summary);
  }

  /** A cell no longer there, removed in `delta`; false when it was not known. */
  drop(dir: string, delta: CellsDelta): boolean {
    const cell = this.cells.get(dir);
    if (!cell) return false;
    this.cells.delete(dir);
    this.unsaved = true;
    delta.removed.push(cell.id);
    return true;
  }
}
