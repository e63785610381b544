import type { RunState } from '../../shared/launch';
import type { CellState } from '../../shared/model';

/** States that say a run moves, from its files alone. */
const MOVING: ReadonlySet<CellState> = new Set(['running', 'throttled', 'stale', 'draining']);

/**
 * A cell's state, corrected by what the process of the run this app launched there says: a live process
 * beats quiet files (running, not stale), and an ended one beats files that still look live (stopped or
 * crashed, never running or draining). A cell that finished says so whatever its process did.
 */
export function truthOf(state: CellState, run: RunState | undefined): CellState {
  if (run === undefined || run === 'pending') return state;
  if (run === 'running') return state === 'stale' ? 'running' : state;
  if (!MOVING.has(state)) return state;
  return run === 'crashed' ? 'crashed' : 'stopped';
}
