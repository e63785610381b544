import type { RunInfo } from '../../../shared/launch';
import { useFeed } from '../context';

/** The launched runs on every target, as the core tells each change. */
export function useRuns(): { runs: RunInfo[] | null; error: Error | null } {
  const { value, error } = useFeed((data) => data.runs);
  return { runs: value, error };
}

/** The tone a run's state is shown in. */
export function runTone(run: RunInfo): string {
  if (run.state === 'running') return 'running';
  if (run.state === 'pending') return 'amber';
  if (run.state === 'crashed') return 'error';
  if (run.state === 'exited') return 'ok';
  return 'grey';
}
