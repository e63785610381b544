import { useState } from 'react';
import { episodesOfSpec, type RunInfo } from '../../../shared/launch';
import { useData } from '../context';
import { asError } from '../../../shared/errors';
import { CallFailed } from '../CallFailed';

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
 * For an ended run whose profile resumes: the episodes to run again (what its drain printed, or pasted),
 * relaunched under its own name into its own cell; the relaunched run comes as the runs change.
 */
export function ResumeRun({ run, said }: { run: RunInfo; said: string[] | null }) {
  const { launch } = useData();
  // What the user typed; until then, what the drain printed.
  const [typed, setTyped] = useState<string | null>(null);
  const spec = typed ?? specIn(said);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  if (!run.canResume || run.state === 'running' || run.state === 'pending') return null;
  const resume = async () => {
    setBusy(true);
    setError(null);
    try {
      await launch.resumeRun(run.id, spec);
    } catch (failed) {
      setError(asError(failed));
    }
    setBusy(false);
  };
  return (
    <form
      className="resume-run"
      aria-label="Resume"
      onSubmit={(e) => {
        e.preventDefault();
        void resume();
      }}
    >
      <label>
        Episodes <input value={spec} onChange={(e) => setTyped(e.target.value)} placeholder="--episodes 7,8 as the drain printed" size={28} />
      </label>
      <button type="submit" disabled={busy || spec.trim() === ''} title={`Runs these episodes again as ${run.name}, in its cell`}>
        {busy ? 'Resuming…' : 'Resume'}
      </button>
      {error && <CallFailed what="The resume" error={error} />}
    </form>
  );
}
