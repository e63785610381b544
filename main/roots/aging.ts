import type { CellState, CellSummary } from '../../shared/model';
import { isRecent } from '../../runners/types';

/** States a format gives for recent changes: with no change for the stale time, a reread says otherwise. */
const RECENCY_STATES: ReadonlySet<CellState> = new Set(['running', 'evaluating']);

/**
 * The cells to read again because time alone changed what they are: moving ones whose newest change is
 * older than the stale time, and throttled ones whose pause has run out (running again, or stale).
 */
export function quietCells(cells: Iterable<CellSummary>, now: number): string[] {
  const quiet: string[] = [];
  for (const cell of cells) {
    const aged = RECENCY_STATES.has(cell.state) && cell.changedAt !== null && !isRecent(cell.changedAt, now);
    const resumed = cell.state === 'throttled' && (cell.pausedUntil ?? 0) <= now;
    if (aged || resumed) quiet.push(cell.path);
  }
  return quiet;
}
