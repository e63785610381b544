import { clockTime, type CellState, type CellSummary } from '../../../shared/model';
import { stuckUnits, type StuckUnit } from '../../../shared/stuck';

/** One meaning per colour, always paired with a word. */
export const STATE_LOOK: Record<CellState, { label: string; tone: 'running' | 'ok' | 'fail' | 'grey' | 'amber' | 'error' | 'stopped'; order: number }> = {
  running: { label: 'running', tone: 'running', order: 0 },
  throttled: { label: 'throttled', tone: 'amber', order: 1 },
  evaluating: { label: 'evaluating', tone: 'running', order: 1 },
  draining: { label: 'draining', tone: 'amber', order: 2 },
  eval_failed: { label: 'EVAL FAILED', tone: 'error', order: 3 },
  unscored: { label: 'unscored', tone: 'amber', order: 5 },
  stale: { label: 'stale', tone: 'amber', order: 4 },
  interrupted: { label: 'interrupted', tone: 'fail', order: 5 },
  crashed: { label: 'crashed', tone: 'error', order: 5 },
  failed: { label: 'failed', tone: 'error', order: 5 },
  cancelled: { label: 'cancelled', tone: 'fail', order: 5 },
  // Not finished's grey: a run someone stopped did not end on its own.
  stopped: { label: 'stopped', tone: 'stopped', order: 6 },
  scored: { label: 'scored', tone: 'ok', order: 6 },
  finished: { label: 'finished', tone: 'grey', order: 7 },
  void: { label: 'void', tone: 'grey', order: 8 },
};

/** What a cell's units are at `now`: stuck, looping, both or neither. */
export const stuckKinds = (cell: Pick<CellSummary, 'running'>, now: number) => [...new Set(stuckUnits(cell.running, now).map((s) => s.kind))];

/** The word a pill says of stuck or looping units: stuck where any is, else looping; null where none is. */
const stuckWord = (stuck: StuckUnit[]) => (stuck.length === 0 ? null : stuck.some((s) => s.kind === 'stuck') ? 'stuck' : 'looping');

/** The word a cell's state pill says at `now` (its width in the list is this word's). */
export const stateWord = (cell: Pick<CellSummary, 'state' | 'running'>, now: number) => stuckWord(stuckUnits(cell.running, now)) ?? STATE_LOOK[cell.state].label;

/**
 * The state in its colour and word; a throttled cell's says, on hover, when it resumes. With `running` and
 * `now`, a cell whose unit is stuck or looping says that instead, its state and each unit's why on hover.
 */
export function StatePill({ state, pausedUntil = null, running = [], now = 0 }: { state: CellState; pausedUntil?: number | null; running?: CellSummary['running']; now?: number }) {
  const look = STATE_LOOK[state];
  const stuck = running.length ? stuckUnits(running, now) : [];
  const word = stuckWord(stuck);
  if (word) {
    return (
      <span className="pill tone-amber stuck-mark" title={[`${look.label}, and`, ...stuck.map((s) => `${s.unit} ${s.kind}: ${s.why}`)].join('\n')}>
        {word}
      </span>
    );
  }
  const title = state === 'throttled' && pausedUntil !== null ? `paused by its model service until ${clockTime(pausedUntil)}` : undefined;
  return (
    <span className={`pill tone-${look.tone}`} title={title}>
      {look.label}
    </span>
  );
}
