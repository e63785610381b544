import { useCallback, useEffect, useState } from 'react';
import type { RunInfo } from '../../../shared/launch';
import { useTransport } from '../context';

/** The launched runs on every target, asked for every two seconds; `reload` asks now. */
export function useRuns(): { runs: RunInfo[] | null; error: Error | null; reload: () => void } {
  const transport = useTransport();
  const [runs, setRuns] = useState<RunInfo[] | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let current = true;
    const load = () =>
      transport.call('listRuns').then(
        (list) => current && (setRuns(list), setError(null)),
        (failed: Error) => current && setError(failed),
      );
    void load();
    const timer = setInterval(load, 2000);
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [transport, tick]);
  return { runs, error, reload: useCallback(() => setTick((t) => t + 1), []) };
}

/** The tone a run's state is shown in. */
export function runTone(run: RunInfo): string {
  if (run.state === 'running') return 'running';
  if (run.state === 'pending') return 'amber';
  if (run.state === 'crashed') return 'error';
  if (run.state === 'exited') return 'ok';
  return 'grey';
}
