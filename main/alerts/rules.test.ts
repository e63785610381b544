import { describe, expect, it } from 'vitest';
import { clockTime, type CellSummary } from '../../shared/model';
import { cellAlerts, hostDownAlert, nextAlertAt, stallAlert, stuckAlerts } from './rules';

const row = (more: Partial<CellSummary>): CellSummary =>
  ({
    id: 'local:/runs/task',
    name: 'move_plate',
    state: 'running',
    changedAt: 1000,
    pausedUntil: null,
    running: [],
    budget: { unit: 'steps', used: 19_000, total: 20_000 },
    episodes: { planned: null, ended: 0, scored: 0, excluded: 0, successes: 0 },
    success_rate: null,
    policyVersions: [],
    versionScores: {},
    capabilities: { versions: true, episodeStreams: true, exclusions: false, vram: false, transcripts: false, unit: 'seed' },
    ...more,
  }) as CellSummary;

describe('what raises an alert', () => {
  it('an evaluation that failed, a session that ended void, a budget used up: each once, on the change', () => {
    expect(cellAlerts(row({ state: 'evaluating' }), row({ state: 'eval_failed' })).map((a) => a.message)).toEqual(['EVAL FAILED (unscored): the evaluation stopped without a summary']);
    expect(cellAlerts(row({ state: 'eval_failed' }), row({ state: 'eval_failed', changedAt: 2000 }))).toEqual([]);
    expect(cellAlerts(row({}), row({ state: 'void' })).map((a) => a.kind)).toEqual(['void']);
    expect(cellAlerts(row({}), row({ budget: { unit: 'steps', used: 20_200, total: 20_000 } })).map((a) => a.message)).toEqual(['budget used up: 20200 / 20000 steps']);
    expect(cellAlerts(row({ budget: { unit: 'steps', used: 20_200, total: 20_000 } }), row({ budget: { unit: 'steps', used: 20_400, total: 20_000 } }))).toEqual([]);
    // The episodes planned, all ended: the run finishing says it.
    const planned = { planned: 10, ended: 10, scored: 10, excluded: 0, successes: 3 };
    expect(cellAlerts(row({ budget: { unit: 'episodes', used: 9, total: 10 } }), row({ budget: { unit: 'episodes', used: 10, total: 10 }, episodes: planned }))).toEqual([]);
  });

  it('a finished cell with nothing scored says so, and a scored one its rate', () => {
    expect(cellAlerts(row({}), row({ state: 'finished' }))[0]?.message).toBe('finished: nothing scored');
    const scored = row({ state: 'scored', success_rate: 0.25, episodes: { planned: 100, ended: 100, scored: 100, excluded: 0, successes: 25 }, policyVersions: ['v001', 'v002'] });
    expect(cellAlerts(row({ state: 'evaluating' }), scored)[0]?.message).toBe('finished: submission v002, 25.0 % success (25 of 100 scored)');
  });

  it('a bigym session: each version evaluated while it runs is its own alert, "finished" once when it ends; interrupted and unscored say so', () => {
    const running = row({ policyVersions: ['v001', 'v002', 'v003'] });
    const v2 = { ...running, versionScores: { v002: 0.85 } };
    const v3 = { ...v2, versionScores: { v002: 0.85, v003: 0.95 } };
    expect(cellAlerts(running, v2).map((a) => [a.kind, a.message])).toEqual([['evaluated', 'v002 evaluated: 85 %']]);
    expect(cellAlerts(v2, v3).map((a) => [a.kind, a.message])).toEqual([['evaluated', 'v003 evaluated: 95 %']]);
    const ended = { ...v3, state: 'scored' as const, success_rate: 0.95, episodes: { planned: 100, ended: 100, scored: 100, excluded: 0, successes: 95 } };
    expect(cellAlerts(v3, ended).map((a) => a.message)).toEqual(['finished: submission v003, 95.0 % success (95 of 100 scored)']);
    expect(cellAlerts(ended, { ...ended, changedAt: 5000 })).toEqual([]);
    expect(cellAlerts(running, { ...running, state: 'unscored' }).map((a) => a.message)).toEqual(['finished unscored: v003 has no evaluation summary']);
    expect(cellAlerts(running, { ...running, state: 'interrupted' }).map((a) => [a.kind, a.message])).toEqual([['interrupted', 'interrupted']]);
  });

  it('a run its model service throttles for a minute or more: once when the pause begins, saying how long and until when; a few seconds\' backoff is no alert', () => {
    expect(cellAlerts(row({}), row({ state: 'throttled', changedAt: 1000, pausedUntil: 6000 }))).toEqual([]);
    const throttled = row({ state: 'throttled', changedAt: 1000, pausedUntil: 91_000 });
    expect(cellAlerts(row({}), throttled)).toEqual([
      { cell: 'local:/runs/task', subject: 'move_plate', key: 'throttled:local:/runs/task:91000', kind: 'throttled', tab: 'episodes', message: `throttled: its model service paused it for 90 s, until ${clockTime(91_000)}` },
    ]);
    expect(cellAlerts(throttled, { ...throttled, changedAt: 1500 })).toEqual([]);
  });

  it('a stall counts from the later of the last bytes and the end of a throttle pause', () => {
    expect(stallAlert(row({}), 1000 + 599_000, 600_000)).toBeNull();
    expect(stallAlert(row({}), 1000 + 600_000, 600_000)).toMatchObject({ message: 'stalled: no new bytes for 10 min', tab: 'episodes' });
    expect(stallAlert(row({ pausedUntil: 300_000 }), 1000 + 600_000, 600_000)).toBeNull();
    expect(stallAlert(row({ state: 'finished' }), 10 ** 9, 600_000)).toBeNull();
  });

  it('a host is news once it has been down for the set time', () => {
    expect(hostDownAlert('gpu1', 0, 59_999, 60_000, null)).toBeNull();
    expect(hostDownAlert('gpu1', 0, 60_000, 60_000, 'connection refused')).toEqual({
      key: 'host_down:gpu1:0', kind: 'host_down', cell: null, subject: 'gpu1', message: 'unreachable for 60 s: connection refused',
    });
  });

  it('a unit stuck or looping: one alert each, the same alert while it stays so, none once the cell has ended', () => {
    const running = [{ unit: '7', lastEventAt: 0, pausedUntil: null, repeat: { call: 'step_discrete {"action":"push_left"}', times: 6, since: 0 } }];
    const raised = stuckAlerts(row({ running }), 600_000);
    expect(raised.map((a) => [a.kind, a.key, a.message])).toEqual([
      ['stuck', 'stuck:local:/runs/task:7:0', 'seed 7 stuck: no new event for 10 min'],
      ['stuck', 'looping:local:/runs/task:7:0', 'seed 7 looping: the same call 6 times in a row: step_discrete {"action":"push_left"}'],
    ]);
    expect(stuckAlerts(row({ running }), 900_000).map((a) => a.key)).toEqual(raised.map((a) => a.key));
    expect(stuckAlerts(row({ running, state: 'finished' }), 900_000)).toEqual([]);
    // A log that times nothing: the same alert at every check still (its time was the check's).
    const untimed = [{ ...running[0]!, lastEventAt: null, repeat: { ...running[0]!.repeat, since: null } }];
    expect(stuckAlerts(row({ running: untimed }), 1000).map((a) => a.key)).toEqual(['looping:local:/runs/task:7:untimed']);
    expect(stuckAlerts(row({ running: untimed }), 2000).map((a) => a.key)).toEqual(['looping:local:/runs/task:7:untimed']);
  });

  it('says when a live row can next stall or have a unit stuck: its quiet plus the threshold, never once it has ended', () => {
    const running = [{ unit: '7', lastEventAt: 0, pausedUntil: null, repeat: null }];
    expect(nextAlertAt(row({ running }), 2000, 60_000)).toBe(61_000);
    expect(stallAlert(row({}), 61_000 - 1, 60_000)).toBeNull();
    expect(stallAlert(row({}), 61_000, 60_000)).not.toBeNull();
    expect(nextAlertAt(row({ running }), 61_000, 60_000)).toBe(600_000);
    expect(nextAlertAt(row({ running, pausedUntil: 90_000 }), 61_000, 60_000)).toBe(150_000);
    expect(nextAlertAt(row({ running }), 600_000, 60_000)).toBe(Infinity);
    expect(nextAlertAt(row({ running, state: 'finished' }), 0, 60_000)).toBe(Infinity);
  });
});
