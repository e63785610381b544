import { useCallback, useEffect, useState } from 'react';

/** What `load` answers, asked now and every `everyMs` while mounted; `reload` asks again at once. */
export function usePolled<T>(load: () => Promise<T>, everyMs = 2000): { value: T | null; error: Error | null; reload: () => void } {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let current = true;
    const ask = () =>
      load().then(
        (answer) => current && (setValue(answer), setError(null)),
        (failed: Error) => current && setError(failed),
      );
    void ask();
    const timer = setInterval(ask, everyMs);
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [load, everyMs, tick]);
  return { value, error, reload: useCallback(() => setTick((t) => t + 1), []) };
}
