import { Fragment } from 'react';
import type { EpisodeRow, StreamEvent } from '../../../shared/cell-detail';
import { dayClockMinutes, isLive } from '../../../shared/model';
import { percent, whole } from '../format';
import { useNow } from '../useNow';
import { useCell } from './context';
import { duration, projectedEnd } from './projection';

interface BarProps {
  label: string;
  /** What a screen reader calls it, when the label alone does not say (the budget's unit). */
  name?: string;
  used: number;
  total: number | null;
  unit: string;
  note?: string;
  tone?: 'running' | 'amber' | 'ok';
  /** Say what is left of the total: not once it is spent for good (a run that ended). */
  left?: boolean;
  /** A part of a whole (scored of ended), not a budget: "19 of 20 ended", no percent beside a success rate to be read as one. */
  share?: boolean;
}

export function Bar({ label, name = label, used, total, unit, note, tone = 'running', left = true, share = false }: BarProps) {
  const fraction = total ? Math.min(1, used / total) : 0;
  const of = total === null ? '?' : whole(total);
  // A count past its plan is a problem of the cell (formats.md), said as one: how far past, never a share or a negative count left.
  const past = total !== null && used > total ? used - total : 0;
  const spent = past ? [`${whole(past)} past its plan`] : [...(total ? [percent(fraction, 0)] : []), ...(total && left ? [`${whole(total - used)} left`] : [])];
  const figure = share ? [`${whole(used)} ${label} of ${of} ${unit}`] : [`${whole(used)} / ${of} ${unit}`, ...spent];
  return (
    <div className="budget-row">
      <span className="budget-label">{label}</span>
      <span className="bar wide" role="meter" aria-label={name} aria-valuemin={0} aria-valuemax={total ?? 0} aria-valuenow={used}>
        <span className={`fill tone-fill-${past ? 'fail' : tone}`} style={{ width: `${fraction * 100}%` }} />
      </span>
      {/* Short of room, it breaks between its parts, each whole. */}
      <span className={past ? 'budget-figure tone-fail' : 'budget-figure'}>
        {figure.map((part, i) => (
          <Fragment key={part}>
            {i > 0 && ' · '}
            <span>{part}</span>
          </Fragment>
        ))}
      </span>
      <span className="budget-note">{note}</span>
    </div>
  );
}

/**
 * The open episode's own budgets (turns, actions, time) and a throttle countdown, from its events; an
 * ended episode's actions and time are what the runner recorded for it (its events may be only a tail).
 */
export function EpisodeBudget({ events, row }: { events: StreamEvent[]; row: EpisodeRow }) {
  const budget = useCell((s) => s.detail?.episodeBudget ?? null);
  const now = useNow(1000);
  const start = events.find((e) => e.ev === 'episode_start');
  const ended = row.status !== 'running' || events.some((e) => e.ev === 'episode_end');
  if (!budget || !start || start.t === null) return null;
  const turns = events.filter((e) => e.ev === 'agent_message' || e.ev === 'tool_call').length;
  const actions = ended && row.actions !== null ? row.actions : events.filter((e) => e.ev === 'tool_result' && e.fields.step !== undefined).length;
  const last = events.at(-1);
  const throttled = !ended && last?.ev === 'throttle' && last.t !== null ? last : null;
  const pausedS = events
    .filter((e) => e.ev === 'throttle')
    .reduce((sum, e) => sum + Math.min(Number(e.fields.wait_s) || 0, Math.max(0, (e === throttled ? now / 1000 : Infinity) - (e.t ?? 0))), 0);
  const endT = ended ? (events.at(-1)?.t ?? start.t) : now / 1000;
  const elapsed = ended && row.wallS !== null ? row.wallS : Math.max(0, endT - start.t - pausedS);
  const resumesIn = throttled ? (throttled.t as number) + (Number(throttled.fields.wait_s) || 0) - now / 1000 : 0;
  return (
    <div className="episode-budget">
      {budget.turns !== null && <Bar label="turns" used={turns} total={budget.turns} unit="" left={!ended} />}
      {budget.actions !== null && <Bar label="actions" used={actions} total={budget.actions} unit="" left={!ended} />}
      {budget.timeoutS !== null && <Bar label="time" used={Math.round(elapsed)} total={budget.timeoutS} unit="s" left={!ended} note={ended ? 'ended' : undefined} />}
      {throttled && resumesIn > 0 && (
        <p className="throttle" role="status">
          <span className="pause-mark" aria-hidden />
          throttled (attempt {String(throttled.fields.attempt ?? '?')} of 6): resumes in {duration(resumesIn)}; the episode clock is paused
        </p>
      )}
    </div>
  );
}

export function BudgetBars() {
  const detail = useCell((s) => s.detail);
  const now = useNow(5000);
  if (!detail) return null;
  const { budget } = detail.summary;
  const live = isLive(detail.summary.state);
  const end = live ? projectedEnd(budget.used, budget.total, detail.startedAt, now) : null;
  const evaluating = detail.versions.filter((v) => v.evalState === 'evaluating');
  const { scored, ended, excluded } = detail.summary.episodes;
  return (
    <div className="budgets" aria-label="Budgets">
      <Bar label="budget" name={`${budget.unit} budget`} used={budget.used} total={budget.total} unit={budget.unit} left={live} note={end ? `ends about ${dayClockMinutes(end, now)}` : undefined} />
      {(detail.summary.capabilities.exclusions || excluded > 0) && <Bar label="scored" used={scored} total={ended || null} unit="ended" tone="ok" share note={`${whole(excluded)} excluded`} />}
      {detail.otherBudgets.map((b) => (
        <Bar key={b.label} label={b.label} used={b.used} total={b.total} unit="accepted" />
      ))}
      {evaluating.map((v) => (
        <Bar key={v.version} label={`eval ${v.version}`} used={v.evalDone} total={v.evalTotal ?? 100} unit="episodes" tone="amber" />
      ))}
    </div>
  );
}
