import type { CellReading } from '../common/cell';

/** Enough of a trajectory's end to hold its last event. */
const TAIL_BYTES = 8192;

/**
 * When the throttle pause a trajectory ends on runs out (epoch ms): its last event is a `throttle`
 * (`t` seconds, `wait_s`), so the run is quiet on purpose until then. Null when it is not paused.
 */
export async function pausedUntil(r: CellReading, trajectory: string, size: number): Promise<number | null> {
  const tail = await r.ctx.fs.readFrom(r.path(trajectory), Math.max(0, size - TAIL_BYTES), TAIL_BYTES);
  const last = tail?.text.trimEnd().split('\n').at(-1);
  if (!last) return null;
  try {
    const event = JSON.parse(last) as { ev?: unknown; t?: unknown; wait_s?: unknown };
    return event.ev === 'throttle' && typeof event.t === 'number' && typeof event.wait_s === 'number' ? (event.t + event.wait_s) * 1000 : null;
  } catch {
    // A line still being written, or a malformed one (the logs' check reports those).
    return null;
  }
}
