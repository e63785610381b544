import { useMemo, useRef } from 'react';
import { isLive, type CellState, type CellSummary } from '../../../shared/model';
import { useNow } from '../useNow';
import { counted, dollars, whole } from '../format';

/** How far back the spend rate looks, of what this window has seen. */
const RATE_WINDOW_MS = 10 * 60_000;
/** Less than this seen, and a rate would be noise. */
const RATE_MIN_MS = 60_000;

const FAILED: ReadonlySet<CellState> = new Set(['crashed', 'eval_failed', 'interrupted']);

export interface SpendSample {
  t: number;
  usd: number;
}

/**
 * The estimated spend per hour over the last minutes seen, from the samples kept (changed in place):
 * null until a minute has been watched. A total that went down (a root removed) starts the measure again.
 */
export function spendRate(samples: SpendSample[], usd: number, now: number): { perHour: number; overMs: number } | null {
  if (samples.length && usd < (samples.at(-1) as SpendSample).usd) samples.length = 0;
  const last = samples.at(-1);
  if (!last || last.usd !== usd || now - last.t > 30_000) samples.push({ t: now, usd });
  while (samples.length > 2 && now - (samples[1] as SpendSample).t > RATE_WINDOW_MS) samples.shift();
  const first = samples[0] as SpendSample;
  const span = now - first.t;
  return span >= RATE_MIN_MS ? { perHour: ((usd - first.usd) / span) * 3_600_000, overMs: span } : null;
}

/** What is happening now, over the cells listed: how many run, went quiet, failed, ended, and the estimated spend. */
export function NowStrip({ cells }: { cells: CellSummary[] }) {
  const now = useNow(15_000);
  const counts = useMemo(() => {
    let live = 0;
    let stale = 0;
    let failed = 0;
    let usd = 0;
    let priced = 0;
    for (const c of cells) {
      if (isLive(c.state)) live++;
      else if (c.state === 'stale') stale++;
      else if (FAILED.has(c.state)) failed++;
      if (c.cost_usd_estimate !== null) {
        usd += c.cost_usd_estimate;
        priced++;
      }
    }
    return { live, stale, failed, ended: cells.length - live - stale - failed, usd, priced };
  }, [cells]);
  const samples = useRef<SpendSample[]>([]);
  const rate = spendRate(samples.current, counts.usd, now);
  return (
    <div className="now-strip" role="status" aria-label="Now">
      <span className="tone-running">{whole(counts.live)} running</span>
      <span>{whole(counts.stale)} stale</span>
      <span className={counts.failed ? 'tone-fail' : undefined} title="crashed, evaluation failed, or interrupted">{whole(counts.failed)} crashed or interrupted</span>
      <span>{whole(counts.ended)} ended</span>
      {counts.priced > 0 ? (
        <>
          <span title={`Tokens at list prices (prices.yml), summed over the ${counted(counts.priced, 'cell')} listed that have a price: an estimate, never a bill`}>est. {dollars(counts.usd)} in all</span>
          <span title="How the estimated total grew over the last minutes this window watched it">
            {rate ? `est. ${dollars(rate.perHour)}/h over the last ${Math.round(rate.overMs / 60_000)} min` : 'spend per hour: watching…'}
          </span>
        </>
      ) : (
        <span title="No cell listed gives tokens of a model prices.yml lists">no est. cost</span>
      )}
    </div>
  );
}
