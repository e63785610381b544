// The stalls and stuck units of the cells seen live, looked for at each check (every second): every live
// cell once one of them can have stalled or have a unit stuck, else only the cells changed since the last
// check. Thousands of quiet cells cost nothing between the moments one of them can raise an alert.
import { append } from '../../shared/arrays';
import { isLive, type CellSummary } from '../../shared/model';
import { isEnded, nextAlertAt, stallAlert, stuckAlerts, type Raised } from './rules';

export class LiveCells {
  /** Cells seen moving while watched, by id: only these can stall (a run abandoned last year is not news). */
  private readonly live = new Map<string, CellSummary>();
  /** Live cells whose row changed since the last check. */
  private readonly changed = new Set<string>();
  /** The first moment a live cell not changed since the last check can stall or have a unit stuck. */
  private nextDue = 0;

  /** A cell's row as it is now (added or changed). */
  seen(cell: CellSummary): void {
    if (isLive(cell.state) || (this.live.has(cell.id) && !isEnded(cell.state))) {
      this.live.set(cell.id, cell);
      this.changed.add(cell.id);
    } else this.live.delete(cell.id);
  }

  removed(id: string): void {
    this.live.delete(id);
    this.changed.delete(id);
  }

  /** The next check looks at every live cell (a new threshold, a kind of alert turned back on). */
  lookAgain(): void {
    this.nextDue = 0;
  }

  /** The stalls and stuck units at `now`, each raised at every check while it lasts (the log keeps one). */
  check(now: number, stallMs: number): Raised[] {
    const raised: Raised[] = [];
    const every = now >= this.nextDue;
    let next = every ? Infinity : this.nextDue;
    for (const id of every ? this.live.keys() : this.changed) {
      const cell = this.live.get(id);
      if (!cell) continue;
      const stalled = stallAlert(cell, now, stallMs);
      if (stalled) raised.push(stalled);
      append(raised, stuckAlerts(cell, now));
      next = Math.min(next, nextAlertAt(cell, now, stallMs));
    }
    this.changed.clear();
    this.nextDue = next;
    return raised;
  }
}
