import { useState } from 'react';
import type { RunInfo } from '../../../shared/launch';
import { useData } from '../context';
import { asError } from '../../../shared/errors';
import { CallFailed } from '../CallFailed';

/**
 * Drain (a profile that drains) and Stop (asked first) for a run that may still change; what Drain got
 * back goes to `onSaid`, an action that failed says so beside the buttons. The run's new state comes as
 * the runs change.
 */
export function RunActions({ run, onSaid }: { run: RunInfo; onSaid: (lines: string[]) => void }) {
  const { launch } = useData();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [failed, setFailed] = useState<Error | null>(null);
  if (run.state !== 'running' && run.state !== 'pending') return null;
  const act = async (what: () => Promise<void>) => {
    setBusy(true);
    setFailed(null);
    await what().catch((e: unknown) => setFailed(asError(e)));
    setBusy(false);
  };
  const how = run.job ? `scancel job ${run.job.id}` : 'SIGTERM, then SIGKILL after 10 s';
  return (
    <>
      {run.state === 'running' && run.canDrain && (
        <button disabled={busy} onClick={() => void act(async () => onSaid(await launch.drainRun(run.id)))}>
          Drain
        </button>
      )}
      {/* Kept while its confirmation is open (it floats under it in a table row): nothing beside it moves. */}
      <button disabled={busy} aria-expanded={confirming} onClick={() => setConfirming(!confirming)}>
        {busy ? 'Stopping…' : 'Stop'}
      </button>
      {confirming && (
        <span className="confirm" role="group" aria-label="Confirm stop">
          Stop {run.name}? {how}.
          <button className="danger" autoFocus onClick={() => (setConfirming(false), void act(async () => void (await launch.stopRun(run.id))))}>
            Stop run
          </button>
          <button onClick={() => setConfirming(false)}>Cancel</button>
        </span>
      )}
      {failed && <CallFailed what={run.name} error={failed} className="tone-fail inline-failed" />}
    </>
  );
}
