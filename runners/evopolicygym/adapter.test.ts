import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { age, context, jsonl, read, tempDir, writeTree } from '../testing';
import { evopolicygym } from './adapter';

let tmp: ReturnType<typeof tempDir>;
let cell: string;
beforeEach(() => {
  tmp = tempDir();
  cell = join(tmp.path, 'cartpole_rec');
});
afterEach(() => tmp.remove());

const run = {
  runner: 'evopolicygym', benchmark: 'cartpole', agent: { provider: 'codex', model: 'gpt-5.6-luna', effort: 'high' },
  config: { split: 'train', max_submissions: 3, episode_budget: 30, episode_pool_size: 60, max_episodes_per_submission: 10, seed: 42 },
  terminal_reason: null, selected_program: null, handed_off: [], validation: null, assessment: null,
};
const events = [
  { t: 1, type: 'run_started' },
  { t: 2, type: 'submission_started', submission: 'submission-000001', episodes: [0, 1, 2] },
  { t: 3, type: 'submission_completed', submission: 'submission-000001', charged: 10 },
  { t: 4, type: 'submission_started', submission: 'submission-000002', episodes: [3] },
  { t: 5, type: 'submission_failed', submission: 'submission-000002', reason: 'capture failed', charged: 0 },
  { t: 6, type: 'submission_started', submission: 'submission-000003', episodes: [4] },
  { t: 7, type: 'submission_completed', submission: 'submission-000003', charged: 6 },
];

describe('evopolicygym', () => {
  it('charges episodes of the budget, a failed capture nothing, and runs while its log moves', async () => {
    writeTree(cell, { 'run.json': run, 'events.jsonl': jsonl(events) });
    const { cell: c, labels } = await read(evopolicygym, cell);
    expect(c.budget).toEqual({ unit: 'episodes', used: 16, total: 30 });
    expect(c.state).toBe('running');
    expect(c.success_rate).toBeNull();
    expect(labels).toMatchObject({ harness: 'codex', model: 'gpt-5.6-luna', effort: 'high' });
    age(cell, ['run.json', 'events.jsonl'], 20 * 60_000);
    expect((await read(evopolicygym, cell)).cell.state).toBe('stale');
  });

  it('is finished with a terminal reason and scored by its assessment', async () => {
    const assessment = {
      split: 'test', program: 'submission-000003', success_rate: 0.5,
      episodes: [{ index: 0, success: true, return: 200 }, { index: 1, success: false, return: 40 }],
    };
    writeTree(cell, { 'run.json': { ...run, terminal_reason: 'budget_exhausted', assessment }, 'events.jsonl': jsonl(events) });
    const { cell: c, units } = await read(evopolicygym, cell);
    expect(c.state).toBe('finished');
    expect(c.success_rate).toBe(0.5);
    expect(c.episodes).toEqual({ planned: 2, ended: 2, scored: 2, excluded: 0, successes: 1 });
    expect(units).toEqual([
      { id: '0', status: 'scored', success: true, scored: true },
      { id: '1', status: 'scored', success: false, scored: true },
    ]);
  });

  it('says when the run ended in error', async () => {
    writeTree(cell, { 'run.json': { ...run, terminal_reason: 'error' } });
    expect((await read(evopolicygym, cell)).cell.problems).toEqual([{ file: 'run.json', message: 'run ended with terminal_reason error', severity: 'error' }]);
  });
});

describe('evopolicygym budgets and ending', () => {
  it('counts a submission in flight against the budget: the host reserved its episodes', async () => {
    const flying = [...events, { t: 8, type: 'submission_started', submission: 'submission-000004', episodes: [5, 6, 7, 8, 9, 10, 11, 12, 13, 14] }];
    writeTree(cell, { 'run.json': { ...run, config: { ...run.config, episode_budget: 40 } }, 'events.jsonl': jsonl(flying) });
    const { cell: c, detail } = await evopolicygym.read(cell, context(), { detail: true });
    expect(c.budget).toEqual({ unit: 'episodes', used: 26, total: 40 });
    expect(detail?.tables.find((t) => t.id === 'run')?.rows).toContainEqual(['reserved by a submission in flight', 10]);
    // Once it completes, what it charged replaces what it held.
    writeTree(cell, { 'events.jsonl': jsonl([...flying, { t: 9, type: 'submission_completed', submission: 'submission-000004', charged: 10 }]) });
    expect((await read(evopolicygym, cell)).cell.budget.used).toBe(26);
  });

  it('shows the terminal reason as written, the pool and the cap, each handed-off candidate\'s validation and the selection, the assessment apart', async () => {
    const validation = { split: 'validation', candidates: [{ program: 'submission-000003', success_rate: 0.7 }, { program: 'submission-000001', success_rate: 0.9 }] };
    const assessment = { split: 'test', program: 'submission-000001', success_rate: 0.8, episodes: [{ index: 0, success: true }] };
    writeTree(cell, { 'run.json': { ...run, terminal_reason: 'agent_timeout', handed_off: ['submission-000003', 'submission-000001'], selected_program: 'submission-000001', validation, assessment }, 'events.jsonl': jsonl(events) });
    const { cell: c, detail } = await evopolicygym.read(cell, context(), { detail: true });
    expect(c.state).toBe('finished');
    const tables = Object.fromEntries((detail?.tables ?? []).map((t) => [t.id, t.rows]));
    expect(tables.run).toEqual([
      ['terminal reason', 'agent_timeout'],
      ['episode budget', 30],
      ['reserved by a submission in flight', 0],
      ['episode pool', 60],
      ['episodes per submission, at most', 10],
      ['selected program', 'submission-000001'],
    ]);
    expect(tables.validation).toEqual([
      ['submission-000003', 1, 0.7, false],
      ['submission-000001', 2, 0.9, true],
    ]);
    expect(tables.assessment).toEqual([['submission-000001', 0.8, 1]]);
    // Each says what its rows are beside its title: "Run 6" read as a run's number.
    expect((detail?.tables ?? []).map((t) => `${t.title} ${t.counted}`)).toEqual(['Run 6 fields', 'Validation 2 candidates', 'Assessment (test) 1 program']);
  });
});

describe('evopolicygym integrity', () => {
  it('charges a submission once, at its first end, and leaves a negative charge out, each said with its lines', async () => {
    const log = [
      ...events,
      // The log gives submission 1 again: a second start, and a second end that would charge it twice.
      { t: 8, type: 'submission_started', submission: 'submission-000001', episodes: [0, 1, 2] },
      { t: 9, type: 'submission_completed', submission: 'submission-000001', charged: 10 },
      { t: 10, type: 'submission_started', submission: 'submission-000004', episodes: [5] },
      { t: 11, type: 'submission_completed', submission: 'submission-000004', charged: -4 },
    ];
    writeTree(cell, { 'run.json': run, 'events.jsonl': jsonl(log) });
    const { cell: c, detail, integrity } = await evopolicygym.read(cell, context(), { detail: true });
    // 10 + 0 + 6 as before: neither the second charge of submission 1 nor the negative one is counted.
    expect(c.budget.used).toBe(16);
    expect(integrity?.map((p) => [p.file, p.line, p.message])).toEqual([['events.jsonl', 11, 'charged is -4: an amount cannot be negative; left out of every sum']]);
    expect(c.problems.map((p) => [p.file, p.line, p.message])).toEqual([
      ['events.jsonl', undefined, '1 start (submission-000001 at lines 2 and 8) of a submission already started: only its first counts'],
      ['events.jsonl', undefined, '1 end (submission-000001 at lines 3 and 9) of a submission already ended: only its first counts, and charges the budget'],
    ]);
    expect(detail?.episodes.map((e) => [e.id, e.note, e.t])).toEqual([
      ['submission-000001', 'charged 10', 3000],
      ['submission-000002', 'charged 0 · capture failed', 5000],
      ['submission-000003', 'charged 6', 7000],
      ['submission-000004', 'charged -4, not counted', 11000],
    ]);
    expect(detail?.otherBudgets).toEqual([{ label: 'submissions', used: 3, total: 3 }]);
  });

  it('takes the cell off its board for an assessment that gives an episode twice, none, or no verdict, each said', async () => {
    const assessment = {
      split: 'test', program: 'submission-000003', success_rate: 0.5,
      episodes: [
        { index: 0, success: true }, { index: 1, success: false }, { index: 1, success: true },
        { index: 2, success: 'yes' }, { index: -1, success: true }, { index: 1.5, success: true }, { success: false },
      ],
    };
    writeTree(cell, { 'run.json': { ...run, terminal_reason: 'finished', assessment }, 'events.jsonl': jsonl(events) });
    const { cell: c, units, integrity } = await read(evopolicygym, cell);
    expect(units).toEqual([
      { id: '0', status: 'scored', success: true, scored: true },
      { id: '1', status: 'repeated', success: null, scored: false },
      { id: '2', status: 'unjudged', success: null, scored: false },
    ]);
    expect(c.episodes).toEqual({ planned: 3, ended: 3, scored: 1, excluded: 2, successes: 1 });
    expect(integrity?.map((p) => `${p.file}: ${p.message}`)).toEqual([
      'run.json: 1 episode given more than once: episode 1 at assessment.episodes[1] and assessment.episodes[2] (failure, then success); 1 episode with two outcomes left unscored',
      'run.json: 3 entries (assessment.episodes[4], assessment.episodes[5], assessment.episodes[6]) without an episode index (a whole number): not counted',
      'run.json: 1 episode (2) of the assessment with a success that is not true or false: left unscored',
      'run.json: assessment.success_rate 0.5, but its units give 1/1 = 1',
    ]);
  });
});

describe('evopolicygym detail', () => {
  it('shows accepted submissions of max_submissions beside the episode budget, and each submission as a row', async () => {
    writeTree(cell, { 'run.json': run, 'events.jsonl': jsonl(events), 'feedback/submission-000001.json': { episodes: [{ index: 0, success: true }, { index: 1, success: false }] } });
    const { detail } = await evopolicygym.read(cell, context(), { detail: true });
    if (!detail) throw new Error('no detail');
    expect(detail.otherBudgets).toEqual([{ label: 'submissions', used: 2, total: 3 }]);
    // Each with its wall time, from its start to its end, and its time its end's.
    expect(detail.episodes.map((e) => [e.id, e.status, e.note, e.wallS, e.t])).toEqual([
      ['submission-000001', 'completed', 'charged 10 · 1/2 succeeded', 1, 3000],
      ['submission-000002', 'failed', 'charged 0 · capture failed', 1, 5000],
      ['submission-000003', 'completed', 'charged 6', 1, 7000],
    ]);
  });

  it("lists each published submission's program snapshot, every file at any depth, with the run's selection and hand-off order", async () => {
    writeTree(cell, {
      'run.json': { ...run, handed_off: ['submission-000003', 'submission-000001'], selected_program: 'submission-000001' },
      'events.jsonl': jsonl(events),
      'programs/submission-000001/policy.py': 'def act(obs):\n    return 0.0\n',
      'programs/submission-000002/policy.py': 'capture failed: not published\n',
      'programs/submission-000003/policy.py': 'def act(obs):\n    return 1.0\n',
      'programs/submission-000003/lib/gains.py': 'K = [1, 2]\n',
    });
    const { detail } = await evopolicygym.read(cell, context(), { detail: true });
    expect(detail?.programs).toEqual([
      { id: 'submission-000001', files: [{ name: 'policy.py', path: 'programs/submission-000001/policy.py' }], note: 'selected · handed off 2nd' },
      {
        id: 'submission-000003',
        files: [
          { name: 'lib/gains.py', path: 'programs/submission-000003/lib/gains.py' },
          { name: 'policy.py', path: 'programs/submission-000003/policy.py' },
        ],
        note: 'handed off 1st',
      },
    ]);
  });

  it('follows no link inside a snapshot: three links to "." list the real files once, in bounded time, and a problem says so', async () => {
    writeTree(cell, { 'run.json': run, 'events.jsonl': jsonl(events), 'programs/submission-000001/policy.py': 'def act(obs):\n    return 0.0\n' });
    for (const name of ['a', 'b', 'c']) symlinkSync('.', join(cell, 'programs/submission-000001', name));
    const { cell: c, detail } = await evopolicygym.read(cell, context(), { detail: true });
    expect(detail?.programs[0]?.files).toEqual([{ name: 'policy.py', path: 'programs/submission-000001/policy.py' }]);
    expect(c.problems).toContainEqual(expect.objectContaining({ file: 'programs/submission-000001', message: '3 links in the snapshot, not followed: a, b, c' }));
  });

  it('stops a snapshot deeper than 8 folders, and says so', async () => {
    const deep = Array.from({ length: 12 }, (_, i) => `d${i}`).join('/');
    writeTree(cell, { 'run.json': run, 'events.jsonl': jsonl(events), 'programs/submission-000001/policy.py': '', [`programs/submission-000001/${deep}/x.py`]: '' });
    const { cell: c, detail } = await evopolicygym.read(cell, context(), { detail: true });
    expect(detail?.programs[0]?.files.map((f) => f.name)).toEqual(['policy.py']);
    expect(c.problems).toContainEqual(expect.objectContaining({ message: 'the snapshot holds folders deeper than 8: the listing stops there' }));
  });
});
