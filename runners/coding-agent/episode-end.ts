import { trailingRepeat, type LoggedCall, type RunningUnit } from '../../shared/stuck';
import type { CellReading } from '../common/cell';
import { isObject } from '../common/json';

/** Enough of a trajectory's end to hold its last events: a throttle pause, and a run of the same call. */
const TAIL_BYTES = 65_536;

/** What the end of a running episode's trajectory says: its throttle pause, and the unit as running (shared/stuck.ts). */
export interface EpisodeEnd {
  /** When the throttle pause it ends on runs out (epoch ms); null when it is not paused. */
  pausedUntil: number | null;
  running: RunningUnit;
}

/**
 * The end of episode `unit`'s trajectory (written last at `writtenAt`, epoch ms): its last event a `throttle`
 * (`t` seconds, `wait_s`) pauses the run on purpose until then; its last tool call and how many times in a row
 * it was made.
 */
export async function episodeEnd(r: CellReading, trajectory: string, size: number, unit: string, writtenAt: number): Promise<EpisodeEnd> {
  const from = Math.max(0, size - TAIL_BYTES);
  const tail = await r.ctx.fs.readFrom(r.path(trajectory), from, TAIL_BYTES);
  const lines = tail?.text.trimEnd().split('\n') ?? [];
  // A tail that starts mid-file starts mid-line.
  if (from > 0) lines.shift();
  const parse = (line: string): Record<string, unknown> | null => {
    try {
      const value = JSON.parse(line) as unknown;
      return isObject(value) ? value : null;
    } catch {
      // A line still being written, or a malformed one (the logs' check reports those).
      return null;
    }
  };
  const time = (e: Record<string, unknown>) => (typeof e.t === 'number' ? e.t * 1000 : null);
  // From the end back, only as far as the last run of one call goes: a running cell is read on each change.
  // Set as the calls are read (a closure's assignment TypeScript does not follow).
  let last = null as Record<string, unknown> | null;
  function* callsNewestFirst(): Generator<LoggedCall> {
    for (let i = lines.length - 1; i >= 0; i--) {
      const event = parse(lines[i] as string);
      if (!event) continue;
      last ??= event;
      // A call is known by its tool's name and arguments; one without a name is no call to repeat.
      if (event.ev === 'tool_call' && typeof event.name === 'string') yield { name: event.name, args: event.args, at: time(event) };
    }
  }
  const repeat = trailingRepeat(callsNewestFirst());
  const pausedUntil = last?.ev === 'throttle' && typeof last.t === 'number' && typeof last.wait_s === 'number' ? (last.t + last.wait_s) * 1000 : null;
  // Quiet since the trajectory was last written (its mtime, on the clock `now` is read against), not since its events' own
  // times: a runner's clock, or a test's made-up one, may be anything.
  return { pausedUntil, running: { unit, lastEventAt: writtenAt, pausedUntil, repeat } };
}
