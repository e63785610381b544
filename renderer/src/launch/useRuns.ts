import { useCallback } from 'react';
import type { RunInfo } from '../../../shared/launch';
import { useTransport } from '../context';
import { usePolled } from '../usePolled';

/** The launched runs on every target, asked for every two seconds; `reload` asks now. */
export function useRuns(): { runs: RunInfo[] | null; error: Error | null; reload: () => void } {
  const transport = useTransport();
  const { value, error, reload } = usePolled(useCallback(() => transport.call('listRuns'), [transport]));
  return { runs: value, error, reload };
}

/** The tone a run's state is shown in. */
export function runTone(run: RunInfo): string {
  if (run.state === 'running') return 'running';
  if (run.state === 'pending') return 'amber';
  if (run.state === 'crashed') return 'error';
  if (run.state === 'exited') return 'ok';
  return 'grey';
}
