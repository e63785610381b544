import type { CellState, CellSummary } from '../../shared/model';
import { isRecent } from '../../runners/types';

/** States a format gives for recent changes: with no change for the stale time, a reread says otherwise. */
const RECENCY_STATES: ReadonlySet<CellState> = new Set(['running', 'evaluating']);

/** The cells that read as moving but whose newest change is older than the stale time: to be read again. */
export function quietCells(cells: Iterable<CellSummary>, now: number): string[] {
  const quiet: string[] = [];
  for (const cell of cells) if (RECENCY_STATES.has(cell.state) && cell.changedAt !== null && !isRecent(cell.changedAt, now)) quiet.push(cell.path);
  return quiet;
}
