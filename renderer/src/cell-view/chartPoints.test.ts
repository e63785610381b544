import { describe, expect, it } from 'vitest';
import type { EpisodeRow } from '../../../shared/cell-detail';
import { groupsOf, successSoFar } from './chartPoints';

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
