import { describe, expect, it } from 'vitest';
import { LOOP_TIMES, nextStuckAt, STUCK_AFTER_MS, stuckUnits, type RunningUnit } from './stuck';

const MIN = 60_000;
const unit = (over: Partial<RunningUnit>): RunningUnit => ({ unit: '7', lastEventAt: 0, pausedUntil: null, repeat: null, ...over });

describe('stuck and looping units', () => {
  it('is stuck from ten minutes without an event, not a millisecond before', () => {
    expect(stuckUnits([unit({})], STUCK_AFTER_MS - 1)).toEqual([]);
    expect(stuckUnits([unit({})], STUCK_AFTER_MS)).toEqual([{ unit: '7', kind: 'stuck', since: 0, why: 'no new event for 10 min' }]);
    expect(stuckUnits([unit({})], 150 * MIN)[0]?.why).toBe('no new event for 2.5 h');
  });

  it('does not count a throttle pause: quiet from when the pause ends', () => {
    const paused = unit({ pausedUntil: 30 * MIN });
    expect(stuckUnits([paused], 39 * MIN)).toEqual([]);
    expect(stuckUnits([paused], 40 * MIN)).toEqual([{ unit: '7', kind: 'stuck', since: 30 * MIN, why: 'no new event for 10 min after its throttle pause ended' }]);
  });

  it('is looping from the same call five times in a row, not four', () => {
    const call = 'step_discrete {"action":"push_left"}';
    expect(stuckUnits([unit({ lastEventAt: 0, repeat: { call, times: LOOP_TIMES - 1, since: 0 } })], 1000)).toEqual([]);
    expect(stuckUnits([unit({ lastEventAt: 0, repeat: { call, times: LOOP_TIMES, since: 0 } })], 1000)).toEqual([{ unit: '7', kind: 'looping', since: 0, why: `the same call 5 times in a row: ${call}` }]);
  });

  it('says nothing of a unit whose events carry no time, unless it loops; then it says no time either', () => {
    expect(stuckUnits([unit({ lastEventAt: null })], 100 * MIN)).toEqual([]);
    const untimed = unit({ lastEventAt: null, repeat: { call: 'bash {"cmd":"ls"}', times: LOOP_TIMES, since: null } });
    expect(stuckUnits([untimed], 100 * MIN)).toEqual([{ unit: '7', kind: 'looping', since: null, why: 'the same call 5 times in a row: bash {"cmd":"ls"}' }]);
  });

  it('says when the first unit turns stuck, from its last event or its pause, and never for one already stuck or untimed', () => {
    const units = [unit({ lastEventAt: 5 * MIN }), unit({ unit: '8', lastEventAt: 2 * MIN, pausedUntil: 7 * MIN }), unit({ unit: '9', lastEventAt: null })];
    expect(nextStuckAt(units, 0)).toBe(15 * MIN);
    expect(stuckUnits(units, 15 * MIN - 1)).toEqual([]);
    expect(stuckUnits(units, 15 * MIN).map((s) => s.unit)).toEqual(['7']);
    expect(nextStuckAt(units, 15 * MIN)).toBe(17 * MIN);
    expect(nextStuckAt(units, 17 * MIN)).toBe(Infinity);
  });
});
