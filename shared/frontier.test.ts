import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paretoBest, paretoByPath, type FrontierPoint } from './frontier';

/** The definition, checked pair by pair. */
const direct = (points: FrontierPoint[]) =>
  new Set(points.filter((p) => !points.some((q) => q !== p && q.rate >= p.rate && q.cost <= p.cost && (q.rate > p.rate || q.cost < p.cost))).map((p) => p.path));

describe('the cost frontier', () => {
  it('is the set no other point beats on both, as a direct check of every pair finds, ties included', () => {
    const point = fc.record({ rate: fc.integer({ min: 0, max: 10 }).map((n) => n / 10), cost: fc.integer({ min: 0, max: 8 }).map((n) => n / 4) });
    fc.assert(
      fc.property(fc.array(point, { maxLength: 40 }), (raw) => {
        const points = raw.map((p, i) => ({ ...p, path: `c${i}` }));
        expect(paretoBest(points)).toEqual(direct(points));
      }),
      { numRuns: 500 },
    );
  });

  it('is taken per board, over on-board cells whose rate and cost are known', () => {
    const cell = (path: string, boardName: string, rate: number | null, cost: number | null, board = 'on') => ({ path, boardName, board, success_rate: rate, cost_usd_estimate: cost, episodes: { ended: 10 } });
    const places = paretoByPath([cell('a', 'x', 0.9, 5), cell('b', 'x', 0.5, 1), cell('c', 'x', 0.4, 2), cell('d', 'y', 0.1, 9), cell('e', 'x', 0.8, null), cell('f', 'x', 1, 0.1, 'off')]);
    expect(Object.fromEntries(places)).toEqual({ a: true, b: true, c: false, d: true, e: null });
  });
});
