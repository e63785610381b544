import { stuckName, stuckUnits, type RunningUnit } from '../../../shared/stuck';
import { StatePill } from '../cell-list/states';
import { clockTime, dayClockMinutes, isLive } from '../../../shared/model';
import { useNow } from '../useNow';
import { projectedEnd } from './projection';
import { useApp, useData } from '../context';
import { useState } from 'react';
import { asError } from '../../../shared/errors';
import { costTitle, dollars, successTitle, whole } from '../format';
import { successText } from '../../../shared/provenance';
import { BoardBadge } from '../cell-list/BoardBadge';
import { useKey } from '../keys';
import { BudgetBars } from './BudgetBars';
import { Charts } from './Charts';
import { SlowestUnits } from './SlowestUnits';
import { CellProvider, useCell } from './context';
import { EpisodesPane } from './EpisodesPane';
import { LogsTab } from './LogsTab';
import { Versions } from './Versions';
import { DetailTables } from './DetailTables';
import { Programs } from './Programs';
import { RunControls } from '../launch/RunControls';
import { MuteButton } from '../alerts/AlertToggles';
import { Tabs } from '../Tabs';
import type { CellTab } from '../../../shared/alerts';
import { CallFailed } from '../CallFailed';
import { TranscriptView } from './TranscriptView';


/** When a live cell's budget runs out at its pace so far, for its headline. */
function ProjectedEnd() {
  const summary = useCell((s) => s.detail?.summary);
  const startedAt = useCell((s) => s.detail?.startedAt ?? null);
  const now = useNow(10_000);
  if (!summary || !isLive(summary.state)) return null;
  const end = projectedEnd(summary.budget.used, summary.budget.total, startedAt, now);
  if (end === null) return null;
  return (
    <span className="muted" title={`the ${summary.budget.unit} budget (${whole(summary.budget.used)} of ${summary.budget.total === null ? '?' : whole(summary.budget.total)}) runs out at its pace so far`}>
      ends about {dayClockMinutes(end, now)}
    </span>
  );
}

/**
 * What its units' outcomes are read by, where a user can pick it (an Inspect log's scorers): the pick is saved
 * and every figure follows it, here, in the list, on the board and in the CLI.
 */
function OutcomeBy({ cellId }: { cellId: string }) {
  const outcomeBy = useCell((s) => s.detail?.outcomeBy);
  const { cell } = useData();
  const [error, setError] = useState<Error | null>(null);
  if (!outcomeBy || outcomeBy.scorers.length < 2) return null;
  return (
    <label className="muted" title="Which scorer's value is each sample's outcome: its success, the rate, the paired tests and the board">
      outcome by{' '}
      <select
        aria-label="Outcome by scorer"
        className="outcome-by"
        title={outcomeBy.scorer ?? undefined}
        value={outcomeBy.scorer ?? ''}
        onChange={(e) => {
          setError(null);
          cell.setScorer(cellId, e.target.value === outcomeBy.first ? null : e.target.value).catch((failed: unknown) => setError(asError(failed)));
        }}
      >
        {outcomeBy.scorers.map((name) => (
          <option key={name} value={name}>
            {name === outcomeBy.first ? `${name} (its first)` : name}
          </option>
        ))}
      </select>
      {error && <CallFailed what="Picking the scorer" error={error} />}
    </label>
  );
}

/** Its units stuck or looping now, each said: which (in its format's word), since when, why. */
function StuckLine({ running, unit }: { running: RunningUnit[]; unit: string }) {
  const now = useNow(10_000);
  const stuck = stuckUnits(running, now);
  if (!stuck.length) return null;
  return (
    <span className="stuck-line tone-amber" role="status" aria-label="Stuck or looping">
      {stuck.map((s) => `${stuckName(s, unit)}${s.since === null ? '' : ` since ${clockTime(s.since)}`}: ${s.why}`).join('; ')}
    </span>
  );
}

function Header() {
  const summary = useCell((s) => s.detail?.summary);
  const closeCell = useApp((s) => s.closeCell);
  if (!summary) return null;
  const labels = [summary.format, summary.labels.harness, summary.labels.model, summary.labels.condition, summary.labels.effort].filter(Boolean);
  return (
    <header className="cell-header">
      <button className="icon-button back" onClick={closeCell} aria-label="Back to the cell list (Esc)" title="Back (Esc)">
        ←
      </button>
      <h1>{summary.name}</h1>
      <span className="muted">{labels.join(' · ')}</span>
      <BoardBadge cell={summary} long />
      {summary.success_rate !== null && <span className="muted" title={successTitle(summary)}>{successText(summary.episodes.successes, summary.episodes.scored)}</span>}
      {summary.reward && summary.reward.mean !== null && (
        <span className="muted" title={`the mean over the units with a numeric ${summary.reward.of ?? 'reward'}`}>
          mean {summary.reward.of ?? 'reward'} {Number(summary.reward.mean.toFixed(4))} of {whole(summary.reward.n)}
        </span>
      )}
      <OutcomeBy cellId={summary.id} />
      <StatePill state={summary.state} pausedUntil={summary.pausedUntil} />
      <ProjectedEnd />
      {summary.state === 'throttled' && summary.pausedUntil !== null && <span className="muted">paused until {clockTime(summary.pausedUntil)}</span>}
      <StuckLine running={summary.running} unit={summary.capabilities.unit} />
      {summary.board === 'ui' && <RunControls cellId={summary.id} />}
      <span className="spacer" />
      <MuteButton cellId={summary.id} />
      <span className="muted tokens-line" title={costTitle(summary) || undefined}>
        {summary.tokens.input !== null && `${whole(summary.tokens.input)} in`}
        {summary.tokens.cached_input !== null && ` (${whole(summary.tokens.cached_input)} cached)`}
        {summary.tokens.output !== null && ` · ${whole(summary.tokens.output)} out`}
        {summary.tokens.reasoning !== null && ` (${whole(summary.tokens.reasoning)} reasoning)`}
        {summary.cost_usd_estimate !== null && ` · est. ${dollars(summary.cost_usd_estimate)} at list price`}
        {summary.cost_usd_billed !== null && ` · billed ${dollars(summary.cost_usd_billed)}`}
        {summary.runnerCostUsd !== null && ` · runner said ${dollars(summary.runnerCostUsd)}`}
      </span>
    </header>
  );
}

function Problems() {
  const problems = useCell((s) => s.problems);
  if (problems.length === 0) return <p className="empty-note">No problems.</p>;
  return (
    <ul className="problems" aria-label="Cell problems">
      {problems.map((p, i) => (
        <li key={`${p.file}:${p.line ?? ''}:${i}`}>
          <span className="problem-mark" aria-hidden>
            !
          </span>
          <code>
            {p.file}
            {p.line ? `:${p.line}` : ''}
          </code>{' '}
          {p.message}
        </li>
      ))}
    </ul>
  );
}

function Body() {
  const detail = useCell((s) => s.detail);
  const error = useCell((s) => s.error);
  const problems = useCell((s) => s.problems.length);
  const tab = useApp((s) => s.openCellTab);
  const unit = useApp((s) => s.openCellEpisode);
  const setCellPlace = useApp((s) => s.setCellPlace);
  const setTab = (next: CellTab) => setCellPlace({ tab: next });
  if (error && !detail) return <CallFailed what="The cell" error={error} />;
  if (!detail) return <p className="muted">Opening…</p>;
  const tabs: { id: CellTab; label: string }[] = [
    { id: 'overview', label: 'Overview' },
    { id: 'episodes', label: 'Episodes' },
    ...(detail.summary.capabilities.versions ? [{ id: 'versions' as CellTab, label: 'Versions' }] : []),
    // A format with policy versions shows its programs there.
    ...(detail.programs.length && !detail.summary.capabilities.versions ? [{ id: 'programs' as CellTab, label: 'Programs' }] : []),
    ...(detail.tables.length ? [{ id: 'tables' as CellTab, label: 'Tables' }] : []),
    // A unit opened as a transcript has the view to itself, at a link of its own.
    ...(detail.summary.capabilities.transcripts && unit ? [{ id: 'transcript' as CellTab, label: 'Transcript' }] : []),
    { id: 'logs', label: 'Logs' },
    { id: 'problems', label: `Problems (${problems})` },
  ];
  return (
    <>
      <Header />
      <Tabs label="Cell views" tabs={tabs} selected={tab} onSelect={setTab} />
      {tab === 'overview' && (
        <div className="overview">
          <BudgetBars />
          <Charts />
          <SlowestUnits />
          {detail.summary.capabilities.versions && <Versions />}
        </div>
      )}
      {tab === 'episodes' && <EpisodesPane />}
      {tab === 'versions' && <Versions />}
      {tab === 'programs' && <Programs />}
      {tab === 'tables' && <DetailTables />}
      {tab === 'transcript' && unit && <TranscriptView cellId={detail.summary.id} unit={unit} onClose={() => setCellPlace({ tab: detail.tables.length ? 'tables' : 'episodes' })} />}
      {tab === 'logs' && <LogsTab cellId={detail.summary.id} />}
      {tab === 'problems' && <Problems />}
    </>
  );
}

export function CellView({ cellId }: { cellId: string }) {
  const closeCell = useApp((s) => s.closeCell);
  useKey('Escape', closeCell);
  return (
    <section className="cell-view" aria-label="Cell">
      <CellProvider cellId={cellId}>
        <Body />
      </CellProvider>
    </section>
  );
}
