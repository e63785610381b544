import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { age, context, jsonl, read, tempDir, writeTree } from '../testing';
import { codingAgent } from './adapter';

let tmp: ReturnType<typeof tempDir>;
let cell: string;
beforeEach(() => {
  tmp = tempDir();
  cell = join(tmp.path, 'std_sdk_fable-5_bare_default');
});
afterEach(() => tmp.remove());

const run = {
  runner: 'coding-agent',
  run: 'std_sdk_fable-5_bare_default',
  cell: { harness: 'sdk', model: 'fable-5', condition: 'bare', effort: 'default' },
  protocol: { name: 'std-v2', episodes: [0, 1, 2, 3, 4, 5, 6, 7], max_turns: 200, rgb_resolution: 512, max_actions: 500, timeout_s: 2400 },
  future_field: { kept: true },
};

const episodes = {
  '0': { status: 'evaluated', success: true, engaged: true },
  '1': { status: 'evaluated', success: false, engaged: true },
  '2': { status: 'timeout', engaged: true },
  '3': { status: 'rate_limited', engaged: true },
  '4': { status: 'infra_error', engaged: false },
  '5': { status: 'infra_error', engaged: true },
  '6': { status: 'error', engaged: true, error: 'adapter crashed' },
};

function summary(aggregate: object, extra: object = {}) {
  return { run: run.run, finished: false, planned: run.protocol.episodes, episodes, aggregate, ...extra };
}

describe('coding-agent: board scoring', () => {
  it('scores evaluated successes, counts timeout, infra_error engaged and error as 0, excludes rate_limited and unengaged infra_error', async () => {
    writeTree(cell, { 'run.json': run, 'summary.json': summary({ success_rate: 0.2, scored: 5, excluded: 2 }) });
    const { cell: c, units, labels } = await read(codingAgent, cell);
    expect(c.episodes).toEqual({ planned: 8, ended: 7, scored: 5, excluded: 2, successes: 1 });
    expect(c.success_rate).toBe(0.2);
    expect(c.budget).toEqual({ unit: 'episodes', used: 7, total: 8 });
    expect(c.problems).toEqual([]);
    expect(c.board).toBe('on');
    expect(c.board_reasons).toEqual([]);
    expect(labels).toEqual({ harness: 'sdk', model: 'fable-5', condition: 'bare', effort: 'default' });
    expect(units.map((u) => [u.id, u.status, u.scored, u.success])).toEqual([
      ['0', 'evaluated', true, true],
      ['1', 'evaluated', true, false],
      ['2', 'timeout', true, false],
      ['3', 'rate_limited', false, null],
      ['4', 'infra_error', false, null],
      ['5', 'infra_error', true, false],
      ['6', 'error', true, false],
    ]);
  });

  it("reports the runner's aggregate when it disagrees with board scoring", async () => {
    writeTree(cell, { 'run.json': run, 'summary.json': summary({ success_rate: 0.25, scored: 4, excluded: 3 }) });
    const { cell: c } = await read(codingAgent, cell);
    expect(c.success_rate).toBe(0.2);
    expect(c.problems).toHaveLength(1);
    expect(c.problems[0]).toMatchObject({ file: 'summary.json' });
    expect(c.problems[0]?.message).toContain('success_rate 0.25 (board scoring gives 0.2000)');
    expect(c.problems[0]?.message).toContain('scored 4 (board scoring gives 5)');
  });

  it("shows each ended episode's tool calls, actions and wall time as written; a negative one as none, the problem its integrity's", async () => {
    const withAmounts = { ...episodes, '0': { ...episodes['0'], tool_calls: 12, actions: 9, wall_s: 30.5 }, '1': { ...episodes['1'], tool_calls: -1, actions: 3, wall_s: -12 } };
    writeTree(cell, { 'run.json': run, 'summary.json': summary({}, { episodes: withAmounts }), 'episodes/0007/trajectory.jsonl': '' });
    const { detail, integrity } = await codingAgent.read(cell, context(), { detail: true });
    expect(detail?.episodes.map((e) => [e.id, e.status, e.toolCalls, e.actions, e.wallS, e.note])).toEqual([
      ['0', 'evaluated', 12, 9, 30.5, null],
      ['1', 'evaluated', null, 3, null, null],
      ['2', 'timeout', null, null, null, null],
      ['3', 'rate_limited', null, null, null, null],
      ['4', 'infra_error', null, null, null, null],
      ['5', 'infra_error', null, null, null, null],
      ['6', 'error', null, null, null, 'adapter crashed'],
      ['7', 'running', null, null, null, null],
    ]);
    expect(integrity?.map((p) => `${p.file}: ${p.message}`)).toEqual([
      'summary.json: episodes.1.tool_calls is -1: an amount cannot be negative; left out of every sum',
      'summary.json: episodes.1.wall_s is -12: an amount cannot be negative; left out of every sum',
    ]);
  });

  it('leaves an evaluated episode whose success is not true or false unscored, the problem its integrity\'s', async () => {
    const unjudged = { ...episodes, '0': { status: 'evaluated', success: 'yes', engaged: true }, '1': { status: 'evaluated', engaged: true } };
    writeTree(cell, { 'run.json': run, 'summary.json': summary({}, { episodes: unjudged }) });
    const { cell: c, units, integrity } = await read(codingAgent, cell);
    expect(units.slice(0, 2).map((u) => [u.id, u.status, u.scored, u.success])).toEqual([
      ['0', 'evaluated', false, null],
      ['1', 'evaluated', false, null],
    ]);
    expect(c.episodes).toEqual({ planned: 8, ended: 7, scored: 3, excluded: 4, successes: 0 });
    expect(integrity?.map((p) => `${p.file}: ${p.message}`)).toEqual(['summary.json: 2 evaluated episodes (0: "yes", 1: none) with a success that is not true or false: left unscored']);
  });

  it('names the ended episodes its plan does not hold, and a plan that lists one twice or holds no episode number', async () => {
    const outside = { ...episodes, '-1': { status: 'evaluated', success: true }, '8': { status: 'evaluated', success: true }, '07': { status: 'evaluated', success: true } };
    writeTree(cell, { 'run.json': run, 'summary.json': summary({}, { episodes: outside, planned: [0, 1, 2, 2, 3, 'four', 4, 5, 6, 7, 1.5] }) });
    const { cell: c, integrity } = await read(codingAgent, cell);
    expect(c.episodes.planned).toBe(8);
    expect(integrity?.map((p) => `${p.file}: ${p.message}`)).toEqual([
      'summary.json: planned holds 2 entries ("four", 1.5) that are no episode number: not planned',
      'summary.json: planned lists 1 episode (2) more than once: planned once',
      'summary.json: 3 ended episodes (-1, 07, 8) not in the plan (summary.json planned)',
    ]);
    // Only a numbered episode has a folder of events (and frames) for the view to open.
    const { detail } = await codingAgent.read(cell, context(), { detail: true });
    expect(detail?.episodes.filter((e) => ['-1', '07', '8'].includes(e.id)).map((e) => [e.id, e.hasEvents])).toEqual([['-1', false], ['07', true], ['8', true]]);
  });

  it("says a plan in run.json that is no list, and takes none from it", async () => {
    writeTree(cell, { 'run.json': { ...run, protocol: { ...run.protocol, episodes: 1_000_000_000 } }, 'summary.json': { run: run.run, finished: false, episodes } });
    const { cell: c } = await read(codingAgent, cell);
    expect(c.budget).toEqual({ unit: 'episodes', used: 7, total: null });
    expect(c.problems.map((p) => `${p.file}: ${p.message}`)).toContain('run.json: "protocol.episodes" is a number, expected an array; ignored');
  });

  it("carries the runner's VRAM peak", async () => {
    writeTree(cell, { 'run.json': run, 'summary.json': summary({}, { vram_peak_mib: 23150 }) });
    expect((await read(codingAgent, cell)).vramPeakMib).toBe(23150);
  });

  it('says nothing is scored yet with a null success rate', async () => {
    writeTree(cell, { 'run.json': run });
    const { cell: c } = await read(codingAgent, cell);
    expect(c.success_rate).toBeNull();
    expect(c.budget).toEqual({ unit: 'episodes', used: 0, total: 8 });
    expect(c.problems).toEqual([]);
  });
});

describe('coding-agent: state', () => {
  it('is finished when the summary says so', async () => {
    writeTree(cell, { 'run.json': run, 'summary.json': summary({}, { finished: true }) });
    expect((await read(codingAgent, cell)).cell.state).toBe('finished');
  });

  it('is draining while DRAIN exists', async () => {
    writeTree(cell, { 'run.json': run, 'summary.json': summary({}), DRAIN: '' });
    expect((await read(codingAgent, cell)).cell.state).toBe('draining');
  });

  it('is throttled while its newest episode ends on a throttle pause still counting down, then running again', async () => {
    const t = 1_764_403_200;
    writeTree(cell, { 'run.json': run, 'summary.json': summary({}), 'episodes/0007/trajectory.jsonl': jsonl([{ seq: 0, t: t - 5, ev: 'episode_start' }, { seq: 1, t, ev: 'throttle', attempt: 2, wait_s: 60 }]) });
    const at = (seconds: number) => read(codingAgent, cell, context((t + seconds) * 1000));
    expect(await at(10)).toMatchObject({ cell: { state: 'throttled' }, pausedUntil: (t + 60) * 1000 });
    // The pause ran out: running while the files are recent, whatever the throttle said.
    expect((await read(codingAgent, cell)).cell.state).toBe('running');
  });

  it('is running while a file changed in the last 10 minutes, stale after', async () => {
    writeTree(cell, { 'run.json': run, 'summary.json': summary({}), 'episodes/0007/trajectory.jsonl': '{"seq": 0}\n' });
    age(cell, ['run.json', 'summary.json'], 3_600_000);
    expect((await read(codingAgent, cell)).cell.state).toBe('running');
    age(cell, ['episodes/0007/trajectory.jsonl'], 11 * 60_000);
    expect((await read(codingAgent, cell)).cell.state).toBe('stale');
  });
});

describe('coding-agent: live files', () => {
  it('keeps the last good summary when it is caught half-written, and says so', async () => {
    writeTree(cell, { 'run.json': run, 'summary.json': summary({}) });
    const ctx = context();
    expect((await codingAgent.read(cell, ctx)).cell.episodes.ended).toBe(7);
    writeFileSync(join(cell, 'summary.json'), JSON.stringify(summary({})).slice(0, 60));
    const { cell: c } = await codingAgent.read(cell, ctx);
    expect(c.episodes.ended).toBe(7);
    expect(c.problems).toEqual([{ file: 'summary.json', message: expect.stringMatching(/not valid JSON.*showing the last good copy/), severity: 'error' }]);
  });

  it('names the run from run.json and keeps unknown fields without complaint', async () => {
    writeTree(join(tmp.path, 'dir-name'), { 'run.json': { ...run, run: 'nonstd_sdk_x', extra: [1, 2] } });
    const { cell: c } = await read(codingAgent, join(tmp.path, 'dir-name'));
    expect(c.name).toBe('nonstd_sdk_x');
    expect(c.board).toBe('nonstd');
    expect(c.problems).toEqual([]);
  });
});

describe('coding-agent: the board (std-v2 as frozen)', () => {
  const boardOf = async (name: string, files: Record<string, string | object>) => {
    writeTree(join(tmp.path, name), files);
    const { cell: c } = await read(codingAgent, join(tmp.path, name));
    return [c.board, c.board_reasons];
  };

  it('puts a std_ run at std-v2 on, whatever share of its episodes ran so far', async () => {
    expect(await boardOf('std_sdk_fable-5_bare_default', { 'run.json': run })).toEqual(['on', []]);
  });

  it('takes a run off for each way its protocol on disk departs from std-v2, each said', async () => {
    const protocol = { ...run.protocol, max_turns: 50, rgb_resolution: 84, timeout_s: undefined };
    expect(await boardOf('std_sdk_fable-5_bare_default', { 'run.json': { ...run, protocol } })).toEqual(['off', ['50 turns; std-v2 has 200 turns', '84 px; std-v2 has 512 px', 'no timeout_s; std-v2 has 2400 s']]);
    expect(await boardOf('std_other', { 'run.json': { ...run, run: 'std_other', protocol: { ...run.protocol, name: 'std-v1' } } })).toEqual(['off', ['protocol std-v1; the board\'s is std-v2']]);
  });

  it('goes by the files, not the name alone: E17 and scratch_try at std-v2 are off, named so', async () => {
    expect(await boardOf('E17', { 'run.json': { ...run, run: 'E17' } })).toEqual(['off', ['E17 is not a std_ run']]);
    expect(await boardOf('scratch_try', { 'run.json': { ...run, run: 'scratch_try' } })).toEqual(['off', ['scratch_try is not a std_ run']]);
  });

  it('is off, never on by default, when run.json is half-written or has no protocol', async () => {
    expect(await boardOf('std_half', { 'run.json': '{"runner": "coding-agent", "run": "std_half", "prot' })).toEqual(['off', ['run.json could not be read: its protocol is unknown']]);
    expect(await boardOf('std_bare', { 'run.json': { runner: 'coding-agent', run: 'std_bare' } })).toEqual(['off', ['run.json has no protocol']]);
  });

  it('keeps a ui_ run off whatever its protocol, saying why', async () => {
    expect(await boardOf('ui_mine', { 'run.json': { ...run, run: 'ui_mine' } })).toEqual(['ui', ['launched from a UI (ui_): never on the board']]);
  });
});
