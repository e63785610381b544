import { useMemo, useState } from 'react';
import { useCell } from '../cell-view/context';
import { jobText, runStateText } from '../../../shared/launch';
import { CallFailed } from '../CallFailed';
import { ResumeRun } from './ResumeRun';
import { RunActions } from './RunActions';
import { runTone, useRuns } from './useRuns';
import { isLocal } from '../../../shared/address';

/** Where a launched run runs, its state (a Slurm job's beside it), Drain and Stop, and why it crashed when it did. */
export function RunControls({ cellId }: { cellId: string }) {
  const { runs, error } = useRuns();
  const run = runs?.filter((r) => r.cellId === cellId).at(-1) ?? null;
  const [said, setSaid] = useState<string[] | null>(null);
  // Its units that ended other than evaluated (infra errors, rate limits, timeouts) or were left out of the score: what
  // a resume may run again. An evaluated failure is the agent's result, never run again.
  const rows = useCell((s) => s.detail?.episodes);
  const failed = useMemo(() => (rows ?? []).filter((r) => r.status !== 'running' && (!r.scored || r.status !== 'evaluated')).map((r) => r.id), [rows]);
  // For a runner that finds them itself (NeMo Gym): how many planned units its cell lacks.
  const episodes = useCell((s) => s.detail?.summary.episodes);
  const lacks = episodes?.planned != null ? Math.max(0, episodes.planned - episodes.ended) : null;
  if (error && !run) return <CallFailed what="Launched runs" error={error} />;
  if (!run) return null;
  return (
    <div className="run-controls">
      <span className={`pill tone-${runTone(run)}`} aria-label="Launched run">
        {runStateText(run)}
        {!isLocal(run.target) && ` · on ${run.target}`}
        {run.job ? ` · ${jobText(run.job)}` : run.pid !== null ? ` · pid ${run.pid}` : ''}
        {run.gpu !== null ? ` · GPU${run.gpu}` : ''}
      </span>
      {run.problem && <span className="muted tone-amber">{run.problem}</span>}
      <RunActions run={run} onSaid={setSaid} />
      <ResumeRun key={run.id} run={run} said={said} failed={failed} lacks={lacks} />
      {said && said.length > 0 && <Output label="Runner said" lines={said} />}
      {run.state === 'crashed' && <Output label="Last lines of stderr" lines={run.stderrTail} tone="fail" />}
    </div>
  );
}

/** What a run printed (its resume spec, its last stderr lines), on its own line under the header, to read and copy. */
export function Output({ label, lines, tone }: { label: string; lines: string[]; tone?: 'fail' }) {
  const [copied, setCopied] = useState(false);
  const copy = () => void navigator.clipboard?.writeText(lines.join('\n')).then(() => setCopied(true), () => setCopied(false));
  return (
    <section className="run-output" aria-label={label}>
      <div className="run-output-head">
        <span className="section-title">{label}</span>
        <button onClick={copy}>{copied ? 'Copied' : 'Copy'}</button>
      </div>
      <pre className={tone ? `tone-${tone}` : undefined}>{lines.join('\n')}</pre>
    </section>
  );
}
