import { describe, expect, it } from 'vitest';
import type { EpisodeRow } from '../../../shared/cell-detail';
import { successSoFar } from './chartPoints';

const row = (id: string, status: string, success: boolean | null, scored = true): EpisodeRow => ({ id, status, success, scored, toolCalls: null, actions: null, wallS: null, t: null, note: null, hasEvents: false });

describe('the success rate so far', () => {
  it('counts each ended episode with a verdict, in order; running, excluded and verdict-less rows are no points', () => {
    const points = successSoFar([row('0', 'evaluated', true), row('1', 'running', null, false), row('2', 'evaluated', false), row('3', 'infra_error', false, false), row('4', 'evaluated', true)]);
    expect(points).toEqual([
      { episode: '0', rate: 100, scored: 1 },
      { episode: '2', rate: 50, scored: 2 },
      { episode: '4', rate: 66.7, scored: 3 },
    ]);
  });

  it('draws nothing for submissions counted with no pass or fail of their own', () => {
    expect(successSoFar([row('submission-000001', 'completed', null), row('submission-000002', 'completed', null)])).toEqual([]);
  });
});
