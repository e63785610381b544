import { describe, expect, it } from 'vitest';
import { spendRate, type SpendSample } from './NowStrip';

const MIN = 60_000;

describe('the spend per hour above the list', () => {
  it('is the growth of the estimated total over the last ten minutes watched, and nothing before a minute', () => {
    const samples: SpendSample[] = [];
    expect(spendRate(samples, 1, 0)).toBeNull();
    expect(spendRate(samples, 1.5, 0.5 * MIN)).toBeNull();
    expect(spendRate(samples, 2, 2 * MIN)).toEqual({ perHour: 30, overMs: 2 * MIN });
    // Twenty minutes on, spending $0.10 a minute: the first samples fall out of the window.
    for (let m = 3; m <= 20; m++) spendRate(samples, 2 + (m - 2) * 0.1, m * MIN);
    expect(spendRate(samples, 3.8, 20 * MIN)?.perHour).toBeCloseTo(6, 9);
  });

  it('starts again when the total goes down (a root removed)', () => {
    const samples: SpendSample[] = [];
    spendRate(samples, 5, 0);
    spendRate(samples, 6, 5 * MIN);
    expect(spendRate(samples, 1, 6 * MIN)).toBeNull();
    expect(spendRate(samples, 2, 8 * MIN)).toEqual({ perHour: 30, overMs: 2 * MIN });
  });
});
