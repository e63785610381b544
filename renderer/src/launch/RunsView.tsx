import { useState } from 'react';
import { jobText, runElapsed, runStateText, type RunInfo } from '../../../shared/launch';
import { CallFailed } from '../CallFailed';
import { useApp } from '../context';
import { useNow } from '../useNow';
import { ResumeRun } from './ResumeRun';
import { RunActions } from './RunActions';
import { Output } from './RunControls';
import { runTone, useRuns } from './useRuns';
import { usePlainColumns } from '../plainColumns';
import { hostWords } from '../../../shared/address';

/** Every run launched from this machine, on every target: state, time, GPU or job, its cell; Drain and Stop. */
export function RunsView() {
  const { runs, error } = useRuns();
  const openCell = useApp((s) => s.openCell);
  const listed = useApp((s) => s.cells);
  const setLaunching = useApp((s) => s.setLaunching);
  const now = useNow(1000);
  const [said, setSaid] = useState<{ run: string; lines: string[] } | null>(null);
  const newestFirst = [...(runs ?? [])].reverse();
  const isListed = (run: RunInfo) => listed.some((c) => c.id === run.cellId);
  const { shown: columns, menu, header, cells } = usePlainColumns<RunInfo>('runs', [
    {
      key: 'run',
      title: 'Run',
      always: true,
      render: (run) => (
        <>
          {isListed(run) ? (
            <button className="link" onClick={() => openCell(run.cellId)} title={`Open ${run.name}`}>
              {run.name}
            </button>
          ) : (
            <span title="its cell is not listed yet">{run.name}</span>
          )}
          <div className="muted id">{run.id.slice(0, 8)}</div>
        </>
      ),
    },
    { key: 'on', title: 'On', render: (run) => hostWords(run.target) },
    {
      key: 'state',
      title: 'State',
      render: (run) => (
        <>
          <span className={`pill tone-${runTone(run)}`}>{runStateText(run)}</span>
          {run.problem && <div className="tone-amber small">{run.problem}</div>}
          {/* Why it crashed, where the run is listed: its last line of stderr, all of the tail on hover. */}
          {run.state === 'crashed' && run.stderrTail.length > 0 && (
            <div className="tone-fail small crash-reason" title={run.stderrTail.join('\n')}>
              {run.stderrTail.at(-1)}
            </div>
          )}
        </>
      ),
    },
    { key: 'elapsed', title: 'Elapsed', numeric: true, render: (run) => runElapsed(run, now) },
    { key: 'gpu', title: 'GPU / job', render: (run) => (run.job ? jobText(run.job) : run.gpu !== null ? `GPU${run.gpu}` : '-') },
    { key: 'cell', title: 'Cell', render: (run) => run.cell, td: (run) => ({ className: 'path', title: run.cell }) },
    {
      key: 'actions',
      title: 'Actions',
      always: true,
      render: (run) => (
        <div className="row-actions">
          <RunActions run={run} onSaid={(lines) => setSaid({ run: run.name, lines })} />
          {run === newestFirst.find((r) => r.cellId === run.cellId) && <ResumeRun key={run.id} run={run} said={said?.run === run.name ? said.lines : null} />}
        </div>
      ),
    },
  ]);
  if (error && !runs) return <CallFailed what="Launched runs" error={error} />;
  if (!runs) return null;
  if (runs.length === 0) {
    return (
      <section className="runs-view" aria-label="Runs">
        <p className="muted">
          No launched runs yet. <button onClick={() => setLaunching(true)}>Launch</button> one here, on an SSH host or on Slurm.
        </p>
      </section>
    );
  }
  return (
    <section className="runs-view" aria-label="Runs">
      <div className="table-bar">{menu}</div>
      <table className="plain-table" aria-label="Launched runs">
        <thead>
          <tr>{columns.map(header)}</tr>
        </thead>
        <tbody>
          {newestFirst.map((run) => (
            <tr key={run.id} aria-label={run.name}>
              {cells(run)}
            </tr>
          ))}
        </tbody>
      </table>
      {said && said.lines.length > 0 && <Output label={`${said.run} said`} lines={said.lines} />}
    </section>
  );
}
