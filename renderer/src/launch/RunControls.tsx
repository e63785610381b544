import { useEffect, useState } from 'react';
import type { RunInfo } from '../../../shared/launch';
import { CallFailed } from '../CallFailed';
import { useTransport } from '../context';

/** Drain and Stop for a cell this app launched, and why it crashed when it did. */
export function RunControls({ cellPath }: { cellPath: string }) {
  const transport = useTransport();
  const [run, setRun] = useState<RunInfo | null>(null);
  const [said, setSaid] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  useEffect(() => {
    let current = true;
    const load = () =>
      transport.call('listRuns').then(
        (runs) => current && (setRun(runs.filter((r) => r.cell === cellPath).at(-1) ?? null), setError(null)),
        (failed: Error) => current && setError(failed),
      );
    void load();
    const timer = setInterval(load, 2000);
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [transport, cellPath]);
  if (error && !run) return <CallFailed what="Launched runs" error={error} />;
  if (!run) return null;
  const act = async (what: () => Promise<void>) => {
    setBusy(true);
    await what().catch((e: Error) => setSaid([e.message]));
    setBusy(false);
  };
  return (
    <div className="run-controls">
      <span className={`pill tone-${run.state === 'running' ? 'running' : run.state === 'crashed' ? 'error' : 'grey'}`}>
        {run.state === 'crashed' ? `crashed (exit ${run.exitCode})` : run.state} · pid {run.pid}
        {run.gpu !== null ? ` · GPU${run.gpu}` : ''}
      </span>
      {run.state === 'running' && run.canDrain && (
        <button disabled={busy} onClick={() => void act(async () => setSaid(await transport.call('drainRun', run.id)))}>
          Drain
        </button>
      )}
      {run.state === 'running' && !confirming && (
        <button disabled={busy} onClick={() => setConfirming(true)}>
          {busy ? 'Stopping…' : 'Stop'}
        </button>
      )}
      {run.state === 'running' && confirming && (
        <span className="confirm" role="group" aria-label="Confirm stop">
          Stop {run.name}? SIGTERM, then SIGKILL after 10 s.
          <button className="danger" autoFocus onClick={() => (setConfirming(false), void act(async () => setRun(await transport.call('stopRun', run.id))))}>
            Stop run
          </button>
          <button onClick={() => setConfirming(false)}>Cancel</button>
        </span>
      )}
      {said && said.length > 0 && <Output label="Runner said" lines={said} />}
      {run.state === 'crashed' && <Output label="Last lines of stderr" lines={run.stderrTail} tone="fail" />}
    </div>
  );
}

/** What a run printed (its resume spec, its last stderr lines), on its own line under the header, to read and copy. */
function Output({ label, lines, tone }: { label: string; lines: string[]; tone?: 'fail' }) {
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
