// A Harbor trial running now (its folder has no result.json yet) as a unit that can be stuck or looping
// (shared/stuck.ts): quiet since its trial.log or its ATIF trajectory was last written; looping on the call
// its trajectory's steps end on, where Harbor's agent writes the trajectory as it goes.
import { largest } from '../../shared/arrays';
import { trailingRepeat, type LoggedCall, type RunningUnit } from '../../shared/stuck';
import type { CellReading } from '../common/cell';
import { arr, obj, str, timestampMs } from '../common/values';
import { ATIF_FILE } from './atif';

/** An ATIF trajectory's tool calls, newest first: its steps from the last, each step's calls from its last. */
function* callsNewestFirst(trajectory: Record<string, unknown>): Generator<LoggedCall> {
  const steps = arr(trajectory.steps).map(obj);
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i] as Record<string, unknown>;
    const calls = arr(step.tool_calls).map(obj);
    for (let j = calls.length - 1; j >= 0; j--) {
      const name = str(calls[j]?.function_name);
      if (name) yield { name, args: calls[j]?.arguments, at: timestampMs(step.timestamp) };
    }
  }
}

/** The running trial in folder `dir` of the job `r` reads. */
export async function runningTrial(r: CellReading, dir: string): Promise<RunningUnit> {
  const log = await r.stat(`${dir}/trial.log`);
  const atif = await r.stat(`${dir}/${ATIF_FILE}`);
  const writes = [log, atif].flatMap((f) => (f?.kind === 'file' ? [f.mtimeMs] : []));
  // Read past the cell's problems: a trajectory caught mid-write is no fault of the cell.
  const trajectory = atif?.kind === 'file' ? await r.ctx.json.read(r.path(`${dir}/${ATIF_FILE}`), `${dir}/${ATIF_FILE}`) : null;
  return {
    unit: dir,
    lastEventAt: writes.length ? largest(writes) : null,
    pausedUntil: null,
    repeat: trajectory?.value ? trailingRepeat(callsNewestFirst(trajectory.value)) : null,
  };
}
