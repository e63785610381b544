import { useState } from 'react';
import { episodesOfSpec, type LaunchPlan, type RunInfo } from '../../../shared/launch';
import { useData } from '../context';
import { asError } from '../../../shared/errors';
import { CallFailed } from '../CallFailed';
import { shellArg } from '../../../shared/quote';
import { counted } from '../format';

/** The spec a drain printed, when one of its lines holds one. */
function specIn(lines: string[] | null): string {
  for (const line of [...(lines ?? [])].reverse()) {
    try {
      return episodesOfSpec(line);
    } catch {
      // Not a resume spec: the next line may be.
    }
  }
  return '';
}

/**
 * For an ended run whose profile resumes: the episodes to run again (what its drain printed, its failed or
 * excluded units, or pasted), or nothing where the runner finds what its cell lacks itself (NeMo Gym); its dry
 * run first (the exact command, or why it would be refused), then relaunched under its own name into its own
 * cell; the relaunched run comes as the runs change.
 */
export function ResumeRun({ run, said, failed = [], lacks = null }: { run: RunInfo; said: string[] | null; failed?: string[]; lacks?: number | null }) {
  const { launch } = useData();
  // What the user typed; until then, what the drain printed.
  const [typed, setTyped] = useState<string | null>(null);
  const spec = typed ?? specIn(said);
  const [planned, setPlanned] = useState<{ spec: string; plan: LaunchPlan } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  if (run.resumes === null || run.state === 'running' || run.state === 'pending') return null;
  const byItself = run.resumes === 'missing';
  const dryRun = planned?.spec === spec ? planned.plan : null;
  const act = async () => {
    setBusy(true);
    setError(null);
    try {
      if (dryRun && !dryRun.refused) await launch.resumeRun(run.id, spec);
      else setPlanned({ spec, plan: await launch.planResume(run.id, spec) });
    } catch (failure) {
      setError(asError(failure));
    }
    setBusy(false);
  };
  return (
    <form
      className="resume-run"
      aria-label="Resume"
      onSubmit={(e) => {
        e.preventDefault();
        void act();
      }}
    >
      {byItself ? (
        <span className="muted" title="Relaunched into the same cell, the runner runs again every unit its inputs hold and its cell lacks">
          {lacks === null ? 'Runs again what the cell lacks' : lacks === 0 ? 'The cell lacks none of its planned units' : `Runs again the ${counted(lacks, 'planned unit')} the cell lacks`}
        </span>
      ) : (
        <label>
          Episodes <input value={spec} onChange={(e) => setTyped(e.target.value)} placeholder="--episodes 7,8 as the drain printed" size={28} />
        </label>
      )}
      {!byItself && failed.length > 0 && (
        <button type="button" onClick={() => setTyped(failed.join(','))} title={`Fills in the ${counted(failed.length, 'unit that', 'units that')} failed or were left out of the score: ${failed.join(', ')}`}>
          Failed units ({failed.length})
        </button>
      )}
      <button type="submit" disabled={busy || (!byItself && spec.trim() === '') || dryRun?.refused != null} title={dryRun ? `Runs ${byItself ? 'what its cell lacks' : 'these episodes'} again as ${run.name}, in its cell` : 'Shows the exact command first'}>
        {busy ? 'Working…' : dryRun ? 'Resume' : 'Dry run'}
      </button>
      {dryRun && (
        <div className="plan" aria-label="Resume dry run">
          <code>{(dryRun.submit ?? dryRun.command).map(shellArg).join(' ')}</code>
          {dryRun.refused && <div className="tone-fail">Would be refused: {dryRun.refused}</div>}
        </div>
      )}
      {error && <CallFailed what="The resume" error={error} />}
    </form>
  );
}
