// What raises an alert, as plain functions of what was seen: rows before and after a change, the time.
import type { Alert } from '../../shared/alerts';
import { clockTime, type CellState, type CellSummary } from '../../shared/model';
import { formatP, type McNemarTable } from '../../shared/mcnemar';
import { nextStuckAt, quietSince, stuckName, stuckUnits } from '../../shared/stuck';

/** A throttle pause this long or longer is an alert; a shorter one is the model service's routine backoff. */
const THROTTLE_WORTH_MS = 60_000;

/** An alert before it is stamped with its time. */
export type Raised = Omit<Alert, 'at'>;

/** States a cell ends in. */
const ENDED_STATES: ReadonlySet<CellState> = new Set(['finished', 'scored', 'unscored', 'void', 'eval_failed', 'interrupted', 'stopped', 'crashed', 'failed', 'cancelled']);

export const isEnded = (state: CellState) => ENDED_STATES.has(state);

function rate(cell: CellSummary): string {
  const { successes, scored } = cell.episodes;
  if (cell.success_rate === null) return 'nothing scored';
  return `${(cell.success_rate * 100).toFixed(1)} % success (${successes} of ${scored} scored)`;
}

/** The alerts a cell's change raises, from its row before and after; a row seen for the first time raises none. */
export function cellAlerts(before: CellSummary, after: CellSummary): Raised[] {
  const base = { cell: after.id, subject: after.name };
  const key = (kind: string) => `${kind}:${after.id}:${after.changedAt ?? 0}`;
  const entered = (state: CellState) => before.state !== state && after.state === state;
  const raised: Raised[] = [];
  const submission = after.policyVersions.at(-1);
  if (!isEnded(before.state) && (after.state === 'finished' || after.state === 'scored')) {
    raised.push({ ...base, key: key('finished'), kind: 'finished', message: `finished: ${after.state === 'scored' && submission ? `submission ${submission}, ` : ''}${rate(after)}` });
  }
  if (!isEnded(before.state) && after.state === 'unscored') {
    raised.push({ ...base, key: key('finished'), kind: 'finished', tab: 'versions', message: `finished unscored: ${submission ?? 'the submission'} has no evaluation summary` });
  }
  if (entered('interrupted')) {
    raised.push({ ...base, key: key('interrupted'), kind: 'interrupted', message: `interrupted${after.success_rate !== null ? `, and still scored: ${rate(after)}` : ''}` });
  }
  // A version evaluated while the session runs: its own score, never the cell's end.
  for (const [version, score] of Object.entries(after.versionScores)) {
    if (version in before.versionScores || after.state !== 'running') continue;
    raised.push({ ...base, key: `evaluated:${after.id}:${version}`, kind: 'evaluated', tab: 'versions', message: `${version} evaluated: ${score === null ? 'no rate' : `${(score * 100).toFixed(0)} %`}` });
  }
  if (entered('eval_failed')) {
    raised.push({ ...base, key: key('eval_failed'), kind: 'eval_failed', tab: 'versions', message: 'EVAL FAILED (unscored): the evaluation stopped without a summary' });
  }
  // A few seconds' backoff is routine (the demo's, a rate limit's): a pause is said once it is long enough to matter.
  if (entered('throttled') && after.pausedUntil !== null && after.changedAt !== null && after.pausedUntil - after.changedAt >= THROTTLE_WORTH_MS) {
    const pause = ` for ${duration(after.pausedUntil - after.changedAt)}`;
    raised.push({ ...base, key: `throttled:${after.id}:${after.pausedUntil}`, kind: 'throttled', tab: 'episodes', message: `throttled: its model service paused it${pause}, until ${clockTime(after.pausedUntil)}` });
  }
  if (entered('void')) raised.push({ ...base, key: key('void'), kind: 'void', tab: 'versions', message: 'ended void: no policy version to score' });
  const { used, total, unit } = after.budget;
  // A budget that is only the episodes planned runs out as the run finishes: said once, as that.
  const plan = total === after.episodes.planned;
  if (!plan && total !== null && total > 0 && before.budget.used < total && used >= total && raised.length === 0) {
    raised.push({ ...base, key: `budget:${after.id}:${unit}:${total}`, kind: 'budget', message: `budget used up: ${used} / ${total} ${unit}` });
  }
  return raised;
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  const m = Math.round(s / 60);
  return m < 120 ? `${m} min` : `${(m / 60).toFixed(1)} h`;
}

/**
 * A cell seen live that has written nothing for `stallMs`: a throttle pause counts only once its
 * countdown has run out. Null when it has not stalled (or has ended).
 */
export function stallAlert(cell: CellSummary, now: number, stallMs: number): Raised | null {
  if (isEnded(cell.state) || cell.changedAt === null) return null;
  if (now - quietSince(cell.changedAt, cell.pausedUntil) < stallMs) return null;
  const paused = cell.pausedUntil !== null && cell.pausedUntil > cell.changedAt ? ', after its throttle pause ended' : '';
  return { key: `stalled:${cell.id}:${cell.changedAt}`, kind: 'stalled', tab: 'episodes', cell: cell.id, subject: cell.name, message: `stalled: no new bytes for ${duration(now - cell.changedAt)}${paused}` };
}

/** Each unit of a cell stuck or looping at `now` (shared/stuck.ts), once per unit and spell (once per unit where its log times nothing). */
export function stuckAlerts(cell: CellSummary, now: number): Raised[] {
  if (isEnded(cell.state)) return [];
  return stuckUnits(cell.running, now).map((s) => ({ key: `${s.kind}:${cell.id}:${s.unit}:${s.since ?? 'untimed'}`, kind: 'stuck', tab: 'episodes', cell: cell.id, subject: cell.name, message: `${stuckName(s, cell.capabilities.unit)}: ${s.why}` }));
}

/**
 * The first moment after `now` at which `stallAlert` or `stuckAlerts` of this row raise an alert they do
 * not raise at `now`; Infinity where only a change of the row can make them.
 */
export function nextAlertAt(cell: CellSummary, now: number, stallMs: number): number {
  if (isEnded(cell.state)) return Infinity;
  const stall = cell.changedAt === null ? Infinity : quietSince(cell.changedAt, cell.pausedUntil) + stallMs;
  return Math.min(stall > now ? stall : Infinity, nextStuckAt(cell.running, now));
}

/** An SSH host down since `since` for at least `afterMs`. */
export function hostDownAlert(alias: string, since: number, now: number, afterMs: number, why: string | null): Raised | null {
  if (now - since < afterMs) return null;
  return { key: `host_down:${alias}:${since}`, kind: 'host_down', cell: null, subject: alias, message: `unreachable for ${duration(now - since)}${why ? `: ${why}` : ''}` };
}

/** A pinned paired test whose significance at 5 % changed: which side is ahead, or that neither is any more. */
export function pairedAlert(pair: { a: string; b: string }, names: { a: string; b: string }, table: McNemarTable, cell: string): Raised {
  const significant = table.p_value < 0.05;
  const ahead = table.only_a > table.only_b ? names.a : names.b;
  const counts = `${table.only_a} vs ${table.only_b} discordant episodes`;
  return {
    key: `paired:${pair.a}|${pair.b}:${significant}:${table.pairs}:${table.only_a}:${table.only_b}`,
    kind: 'paired',
    cell,
    subject: `${names.a} vs ${names.b}`,
    message: significant ? `${ahead} is ahead: p = ${formatP(table.p_value)} < 0.05 (${counts})` : `no longer significant: p = ${formatP(table.p_value)} (${counts})`,
  };
}
