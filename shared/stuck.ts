// Stuck and looping units: a running unit (an episode, a rollout, a sample) that has written no event for a
// while outside a throttle pause, or that repeats one tool call with the same arguments again and again.
import { canonicalArguments } from './call-arguments';

/** No new event for this long, outside a throttle pause: stuck (Inspect's control channel flags 10 minutes). */
export const STUCK_AFTER_MS = 10 * 60_000;
/** The same call with the same arguments this many times in a row: looping. */
export const LOOP_TIMES = 5;

/** A unit running now, as its log's end says: its last event, its throttle pause, the call it last repeated. */
export interface RunningUnit {
  unit: string;
  /** Epoch ms it last wrote an event (its log's last write); null where that is not known. */
  lastEventAt: number | null;
  /** Epoch ms its throttle pause ends, where its last event is one. */
  pausedUntil: number | null;
  /** Its last tool call (name and arguments) and how many times in a row it made it, with the time of the first of them. */
  repeat: { call: string; times: number; since: number | null } | null;
}

/** A tool call as a unit's log says it: its tool's name, its arguments (JSON, or their text) and when it was made. */
export interface LoggedCall {
  name: string;
  args: unknown;
  at: number | null;
}

/**
 * The call a unit's calls end on and how many times in a row it was made (the time of the first of them),
 * from its calls newest first, read only as far back as that run goes; null where it made none.
 */
export function trailingRepeat(newestFirst: Iterable<LoggedCall>): RunningUnit['repeat'] {
  let call: string | null = null;
  let times = 0;
  let since: number | null = null;
  for (const c of newestFirst) {
    const key = `${c.name} ${canonicalArguments(typeof c.args === 'string' ? c.args : JSON.stringify(c.args ?? {}))}`;
    if (call !== null && call !== key) break;
    call = key;
    times++;
    since = c.at;
  }
  return call === null ? null : { call, times, since };
}

export interface StuckUnit {
  unit: string;
  kind: 'stuck' | 'looping';
  /** Epoch ms it has been so since; null where its log times none of its calls nor its events. */
  since: number | null;
  why: string;
}

function minutes(ms: number): string {
  const m = Math.floor(ms / 60_000);
  return m < 120 ? `${m} min` : `${(m / 60).toFixed(1)} h`;
}

/** Since when a unit (or a cell) has written nothing outside a throttle pause: its last write, or its pause's end after it. */
export const quietSince = (lastEventAt: number, pausedUntil: number | null) => Math.max(lastEventAt, pausedUntil ?? 0);

/** Each running unit that is stuck or looping at `now` (a unit can be both). */
export function stuckUnits(running: readonly RunningUnit[], now: number, stuckAfterMs = STUCK_AFTER_MS, loopTimes = LOOP_TIMES): StuckUnit[] {
  const found: StuckUnit[] = [];
  for (const r of running) {
    if (r.lastEventAt !== null) {
      const quiet = quietSince(r.lastEventAt, r.pausedUntil);
      if (now - quiet >= stuckAfterMs) {
        const paused = r.pausedUntil !== null && r.pausedUntil > r.lastEventAt ? ' after its throttle pause ended' : '';
        found.push({ unit: r.unit, kind: 'stuck', since: quiet, why: `no new event for ${minutes(now - quiet)}${paused}` });
      }
    }
    if (r.repeat && r.repeat.times >= loopTimes) {
      found.push({ unit: r.unit, kind: 'looping', since: r.repeat.since ?? r.lastEventAt, why: `the same call ${r.repeat.times} times in a row: ${r.repeat.call}` });
    }
  }
  return found;
}

/** A stuck unit named as every view names it: "episode 3 stuck", "trial fix-bug__a1b2c3d looping" (`noun`: its format's unit). */
export const stuckName = (s: Pick<StuckUnit, 'unit' | 'kind'>, noun: string) => `${noun} ${s.unit} ${s.kind}`;

/** The first moment after `now` at which one of `running` turns stuck; Infinity where none does without a new event. */
export function nextStuckAt(running: readonly RunningUnit[], now: number, stuckAfterMs = STUCK_AFTER_MS): number {
  let next = Infinity;
  for (const r of running) {
    if (r.lastEventAt === null) continue;
    const at = quietSince(r.lastEventAt, r.pausedUntil) + stuckAfterMs;
    if (at > now && at < next) next = at;
  }
  return next;
}

/** As `status --json` prints a cell's stuck and looping units. */
export const stuckJson = (running: readonly RunningUnit[], now: number) => stuckUnits(running, now).map(({ unit, kind, since, why }) => ({ unit, kind, since: since === null ? null : new Date(since).toISOString(), why }));
