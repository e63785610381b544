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
      {run.state === 'running' && (
        <button disabled={busy} onClick={() => void act(async () => setRun(await transport.call('stopRun', run.id)))}>
          {busy ? 'Stopping…' : 'Stop'}
        </button>
      )}
      {said && said.length > 0 && (
        <pre className="run-said" aria-label="Runner said">
          {said.join('\n')}
        </pre>
      )}
      {run.state === 'crashed' && (
        <pre className="run-said tone-fail" aria-label="Last lines of stderr">
          {run.stderrTail.join('\n')}
        </pre>
      )}
    </div>
  );
}
