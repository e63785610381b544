import { describe, expect, it } from 'vitest';
import type { EpisodeRow } from '../../../shared/cell-detail';
import { listCost } from '../../../shared/cost';
import { groupsOf, spendByHour, successSoFar } from './chartPoints';
import { thin } from './decimate';

const row = (id: string, status: string, success: boolean | null, scored = true, group?: string): EpisodeRow => ({ id, status, success, scored, toolCalls: null, actions: null, wallS: null, t: null, note: null, hasEvents: false, ...(group === undefined ? {} : { group }) });

describe('the success rate so far', () => {
  it('counts each ended episode with a verdict, in order; running, excluded and verdict-less rows are no points', () => {
    const points = successSoFar([row('0', 'evaluated', true), row('1', 'running', null, false), row('2', 'evaluated', false), row('3', 'infra_error', false, false), row('4', 'evaluated', true)]);
    expect(points).toEqual([
      { episode: '0', rate: 100, scored: 1, groups: {} },
      { episode: '2', rate: 50, scored: 2, groups: {} },
      { episode: '4', rate: 66.7, scored: 3, groups: {} },
    ]);
  });

  it('draws nothing for submissions counted with no pass or fail of their own', () => {
    expect(successSoFar([row('submission-000001', 'completed', null), row('submission-000002', 'completed', null)])).toEqual([]);
  });

  it("keeps each version's rate apart from the pooled one: a weak first version does not drag a strong second down", () => {
    const rows = [row('1', 'ended', false, true, 'v001'), row('2', 'ended', false, true, 'v001'), row('3', 'ended', true, true, 'v002'), row('4', 'ended', true, true, 'v002'), row('5', 'ended', false, true, 'v001')];
    const points = successSoFar(rows);
    expect(groupsOf(rows)).toEqual(['v001', 'v002']);
    expect(points.map((p) => p.rate)).toEqual([0, 0, 33.3, 50, 40]);
    expect(points.map((p) => p.groups.v002?.rate ?? null)).toEqual([null, null, 100, 100, 100]);
    expect(points.at(-1)?.groups).toEqual({ v001: { rate: 0, scored: 3 }, v002: { rate: 100, scored: 2 } });
  });
});

describe('the success rate so far, thinned as it is built', () => {
  it('equals every point built and then thinned, for random rows, groups and sizes', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const pick = <T,>(of: readonly T[]) => of[Math.floor(random() * of.length)] as T;
    for (let trial = 0; trial < 300; trial++) {
      const rows = Array.from({ length: Math.floor(random() * 700) }, (_, i) =>
        row(String(i), pick(['evaluated', 'running', 'ended', 'infra_error']), pick([true, false, null]), random() < 0.85, pick([undefined, 'a', 'b', 'c'])),
      );
      for (const most of [0, 1, 2, 3, 17, 200, 1_000]) expect(successSoFar(rows, most), `trial ${trial}, at most ${most}`).toEqual(thin(successSoFar(rows), most));
    }
  });
});

describe('the estimated spend per hour', () => {
  const price = { input: 2, cached_input: 0.5, output: 8 };
  const H = 3_600_000;
  const T0 = Date.UTC(2026, 11, 1, 10, 0, 0);
  const unit = (id: string, t: number | null, input: number | null, cached: number | null, output: number | null): EpisodeRow => ({ ...row(id, 'ended', true), t, usage: input === null && output === null ? null : { input, cached, output } });

  it("sums each hour's units at the list price, the hours between at $0; units without an end or tokens are left out", () => {
    const units = [unit('a', T0 + 10, 1_000_000, 400_000, 10_000), unit('b', T0 + H - 1, 500_000, null, 0), unit('c', T0 + 3 * H + 5, 0, null, 1_000_000), unit('d', null, 5_000_000, null, 0), unit('e', T0, null, null, null)];
    expect(spendByHour(units, price)).toEqual([
      { hour: T0, usd: (600_000 * 2 + 400_000 * 0.5 + 10_000 * 8) / 1e6 + 1, units: 2 },
      { hour: T0 + H, usd: 0, units: 0 },
      { hour: T0 + 2 * H, usd: 0, units: 0 },
      { hour: T0 + 3 * H, usd: 8, units: 1 },
    ]);
  });

  it('adds up, over the hours, to the list price of all the units\' tokens together: the cell\'s estimate, where they are its tokens', () => {
    const units = Array.from({ length: 50 }, (_, i) => unit(String(i), T0 + i * 977_000, 1000 + i * 37, (i * 13) % 900, 50 + i));
    const total = spendByHour(units, price).reduce((sum, h) => sum + h.usd, 0);
    const sums = units.reduce((s, u) => ({ input: s.input + (u.usage?.input ?? 0), cached: s.cached + (u.usage?.cached ?? 0), output: s.output + (u.usage?.output ?? 0) }), { input: 0, cached: 0, output: 0 });
    expect(total).toBeCloseTo(listCost(price, sums), 12);
  });
});
