// A cell's row, as the list, the board and `cellwatch status` show it: its cell's fields written out one by one; and its event logs' check, told what a watch saw change.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Cell } from '../shared/model';
import { baseCell } from './common/cell';
import { logProblems, readCell, summaryOf } from './read';
import { LogCache } from './common/logs';
import { localFs } from './common/fs';
import { context, jsonl, tempDir, writeTree } from './testing';
import { ADAPTERS } from './adapters';
import { MAX_NAME_CHARS, MAX_TEXT_CHARS } from '../shared/elide';
import { cellId } from '../shared/address';

/** A cell of the format, every field given a value of its own (a reward only where `reward` is). */
function cellOf(seed: number, reward: boolean): Cell {
  const cell = baseCell(`/runs/cell-${seed}`, reward ? 'nemo-gym' : 'coding-agent', { host: seed % 2 ? 'local' : 'gpu-box' });
  cell.board = seed % 3 ? 'on' : 'off';
  cell.board_reasons = seed % 3 ? [] : [`reason ${seed}`];
  cell.state = seed % 2 ? 'running' : 'finished';
  cell.budget = { unit: 'episodes', used: seed, total: seed + 1 };
  cell.episodes = { planned: seed + 1, ended: seed, scored: seed, excluded: 0, successes: seed >> 1 };
  cell.success_rate = seed % 5 ? 0.5 : null;
  cell.tokens = { input: seed * 10, cached_input: seed, output: seed * 2, reasoning: null };
  cell.cost_usd_estimate = seed / 100;
  cell.cost_usd_billed = seed / 50;
  cell.cost_source = `source ${seed}`;
  cell.problems = [{ file: `file-${seed}`, message: `problem ${seed}`, severity: 'error' }];
  if (reward) cell.reward = { mean: seed / 7, n: seed };
  return cell;
}

describe('summaryOf', () => {
  it('carries every field of the cell, each its own value, and the reward only where the cell has one', () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.boolean(), (seed, reward) => {
        const cell = cellOf(seed, reward);
        const row = summaryOf({ cell, labels: { harness: 'h', model: 'm', condition: null, effort: null }, changedAt: seed, units: [] }, '/runs');
        for (const [key, value] of Object.entries(cell)) expect(row[key as keyof Cell], key).toBe(value);
        expect(JSON.parse(JSON.stringify(row)).reward).toEqual(reward ? { mean: seed / 7, n: seed } : undefined);
        expect([row.root, row.changedAt, row.labels.harness]).toEqual(['/runs', seed, 'h']);
      }),
      { numRuns: 50 },
    );
  });
});

describe('a cell whose files hold values of a megabyte (hostile sizes)', () => {
  const MB = 1 << 20;
  const within = (read: Awaited<ReturnType<typeof readCell>>) => {
    for (const word of [read.cell.name, ...Object.values(read.labels), read.boardName, ...(read.benchmarks ?? [])]) expect(word?.length ?? 0).toBeLessThanOrEqual(MAX_NAME_CHARS);
    for (const p of read.cell.problems) expect(p.message.length).toBeLessThanOrEqual(MAX_TEXT_CHARS);
    for (const reason of read.cell.board_reasons) expect(reason.length).toBeLessThanOrEqual(MAX_TEXT_CHARS);
    for (const status of Object.keys(read.excludedBy ?? {})) expect(status.length).toBeLessThanOrEqual(MAX_NAME_CHARS);
    for (const unit of [...read.units, ...Object.values(read.agentUnits ?? {}).flat()]) expect(unit.id.length).toBeLessThanOrEqual(MAX_NAME_CHARS);
    for (const agent of read.agents ?? []) expect(agent.model?.length ?? 0).toBeLessThanOrEqual(MAX_NAME_CHARS);
    expect(read.cell.reward?.of?.length ?? 0).toBeLessThanOrEqual(MAX_NAME_CHARS);
  };

  it('names each in its name, labels, problems and board reasons by its start and end, and still counts every episode', async () => {
    const tmp = tempDir();
    try {
      const dir = join(tmp.path, 'std_sdk_m_bare_default');
      const episodes = { '0': { status: 'evaluated', success: `${'y'.repeat(MB)}!` }, '1': { status: 'evaluated', success: true }, [`e${'k'.repeat(MB)}`]: { status: 'evaluated', success: true } };
      // A plan of 100 whose list also holds 10,000 entries that are no episode number.
      const planned = [...Array.from({ length: 100 }, (_, i) => i), ...Array.from({ length: 10_000 }, () => 'x')];
      writeTree(dir, {
        'run.json': { runner: 'coding-agent', run: `std_${'r'.repeat(MB)}`, cell: { harness: `h${'s'.repeat(MB)}`, model: 'm', condition: 'bare', effort: 'default' }, protocol: { name: `p${'q'.repeat(MB)}`, episodes: [0, 1] } },
        'summary.json': { run: 'std_sdk_m_bare_default', finished: false, planned, episodes },
      });
      const read = await readCell(dir, 'coding-agent', context());
      within(read);
      expect(read.cell.episodes).toEqual({ planned: 100, ended: 3, scored: 2, excluded: 1, successes: 2 });
      const messages = read.cell.problems.map((p) => p.message);
      expect(messages).toContainEqual(expect.stringMatching(/^1 evaluated episode \(0: "y+… 1,048,\d{3} characters not shown …y+!"\) with a success that is not true or false: left unscored$/));
      expect(messages).toContain('planned holds 10,000 entries ("x", "x", "x" and 9,997 more) that are no episode number: not planned');
      expect(messages).toContainEqual(expect.stringMatching(/^1 ended episode \(ek+… 1,048,\d{3} characters not shown …k+\) not in the plan/));
      expect(read.boardName).toMatch(/^coding-agent pq+… 1,048,\d{3} characters not shown …q+$/);
      expect([read.cell.name, read.labels.harness, read.labels.model]).toEqual([expect.stringMatching(/^std_r+… 1,048,\d{3} characters not shown …r+$/), expect.stringMatching(/^hs+… 1,048,\d{3} characters not shown …s+$/), 'm']);
      expect(read.cell.board_reasons).toContainEqual(expect.stringMatching(/^protocol pq+… 1,048,\d{3} characters not shown …q+; the board's is std-v2$/));
      // The episode of a megabyte's name is one unit, named by its start, end and a hash of it whole, as a paired test pairs it and the view lists it.
      expect(read.units.map((u) => u.id)).toEqual(['0', '1', expect.stringMatching(/^ek+… 1,048,\d{3} characters not shown …k+ #[0-9a-f]{12}$/)]);
      const detailed = await readCell(dir, 'coding-agent', context(), { detail: true });
      expect(new Set(detailed.detail?.episodes.map((e) => e.id))).toEqual(new Set(read.units.map((u) => u.id)));
    } finally {
      tmp.remove();
    }
  });

  it('counts a unit failed with a class of a megabyte under that class cut to a name', async () => {
    const tmp = tempDir();
    try {
      const path = join(tmp.path, 'c.jsonl');
      const row = (task: number, more: object) => ({ responses_create_params: { input: [] }, response: { output: [] }, _ng_task_index: task, _ng_rollout_index: 0, agent_ref: { name: 'pi' }, ...more });
      writeFileSync(path, jsonl([row(0, { reward: 1 })]));
      writeFileSync(join(tmp.path, 'c_failures.jsonl'), jsonl([row(1, { _ng_failure_class: `f${'z'.repeat(MB)}`, _ng_failure_terminal: true })]));
      const read = await readCell(path, 'nemo-gym', context());
      within(read);
      expect(Object.values(read.excludedBy ?? {})).toEqual([1]);
      expect(Object.keys(read.excludedBy ?? {})[0]).toMatch(/^failed: fz+… 1,048,\d{3} characters not shown …z+$/);
    } finally {
      tmp.remove();
    }
  });
  it('names agents of a megabyte by their start and end and a hash of the whole: each its own, its rollouts counted and opened under that name; their model of a megabyte cut to a name', async () => {
    const tmp = tempDir();
    try {
      const path = join(tmp.path, 'c.jsonl');
      // Two names alike but for one character in the middle, and a short one.
      const long = (middle: string) => `${'a'.repeat(MB)}${middle}${'z'.repeat(MB)}`;
      const row = (task: number, agent: string, reward: number) => ({ responses_create_params: { input: [] }, response: { model: `m${'o'.repeat(MB)}`, output: [{ type: 'message', content: [{ type: 'output_text', text: `answer ${task}` }] }] }, reward, _ng_task_index: task, _ng_rollout_index: 0, agent_ref: { name: agent } });
      writeFileSync(path, jsonl([row(0, long('1'), 1), row(1, long('1'), 1), row(0, long('2'), 0), row(1, long('2'), 1), row(0, 'pi', 0)]));
      const read = await readCell(path, 'nemo-gym', context());
      within(read);
      const agents = read.agents ?? [];
      const model = expect.stringMatching(/^mo+… 1,048,\d{3} characters not shown …o+$/);
      expect(agents.map((a) => [a.episodes.ended, a.episodes.successes, a.model])).toEqual([[2, 2, model], [2, 1, model], [1, 0, model]]);
      const [one, two] = agents.map((a) => a.name);
      for (const name of [one, two]) expect(name).toMatch(/^a+… 2,09\d,\d{3} characters not shown …z+ #[0-9a-f]{12}$/);
      expect(one?.length).toBeLessThanOrEqual(MAX_NAME_CHARS);
      expect(one).not.toBe(two);
      expect(read.units.map((u) => u.id)).toEqual([`${one}/0#0`, `${one}/1#0`, `${two}/0#0`, `${two}/1#0`, 'pi/0#0']);
      // Each agent's rollout opens under the name the views carry.
      const transcript = await ADAPTERS['nemo-gym'].capabilities.transcripts?.read(path, `${two}/1#0`, context());
      expect([transcript?.agent, transcript?.answer, transcript?.reward]).toEqual([two, 'answer 1', 1]);
    } finally {
      tmp.remove();
    }
  });

  it("names the scorer of an Inspect log's mean, a megabyte long, by its start and end", async () => {
    const tmp = tempDir();
    try {
      const fixture = join(__dirname, 'inspect/fixtures/log_read_sample.json');
      // Its scorer, and each sample's score by it, named with a megabyte.
      const path = join(tmp.path, 'log.json');
      writeFileSync(path, readFileSync(fixture, 'utf8').replaceAll('"match"', `"${'s'.repeat(MB)}match"`));
      const [read, plain] = [await readCell(path, 'inspect', context()), await readCell(fixture, 'inspect', context())];
      within(read);
      expect(read.cell.reward).toEqual({ ...plain.cell.reward, of: expect.stringMatching(/^s+… 1,048,\d{3} characters not shown …s*match #[0-9a-f]{12}$/) });
      expect(read.cell.episodes).toEqual(plain.cell.episodes);
      // The view offers it by that name (a call naming it whole would be a megabyte), and a pick by that name is the log's own.
      const offered = (await readCell(path, 'inspect', context(), { detail: true })).detail?.outcomeBy;
      expect([offered?.scorer, offered?.scorers.every((name) => name.length <= MAX_NAME_CHARS)]).toEqual([read.cell.reward?.of, true]);
      const picked = await readCell(path, 'inspect', { ...context(), scorers: { [cellId('local', path)]: offered?.scorer as string } });
      expect([picked.cell.reward, picked.cell.problems]).toEqual([read.cell.reward, read.cell.problems]);
    } finally {
      tmp.remove();
    }
  });
});

describe('logProblems, told what a watch saw change', () => {
  const line = (found: { file?: string; line?: number | null }[]) => found.map((p) => `${p.file}:${p.line}`);

  it('looks again at a log changed, or below a folder changed, and at one never checked; trusts the rest', async () => {
    const tmp = tempDir();
    try {
      const cell = join(tmp.path, 'c');
      const ok = '{"seq": 0, "ev": "episode_start"}\n';
      writeTree(cell, { 'run.json': { runner: 'coding-agent', run: 'c' }, 'episodes/0000/trajectory.jsonl': ok, 'episodes/0001/trajectory.jsonl': ok });
      const logs = new LogCache(localFs);
      const ctx = context();
      expect(await logProblems(cell, 'coding-agent', ctx, logs)).toEqual([]);
      for (const episode of ['0000', '0001']) appendFileSync(join(cell, 'episodes', episode, 'trajectory.jsonl'), '{broken\n');
      writeTree(cell, { 'episodes/0002/trajectory.jsonl': `${ok}{broken\n` });
      // Nothing said to have changed: only the log never checked is looked at.
      expect(line(await logProblems(cell, 'coding-agent', ctx, logs, new Set()))).toEqual(['episodes/0002/trajectory.jsonl:2']);
      expect(line(await logProblems(cell, 'coding-agent', ctx, logs, new Set([join(cell, 'episodes', '0001', 'trajectory.jsonl')])))).toEqual(['episodes/0001/trajectory.jsonl:2', 'episodes/0002/trajectory.jsonl:2']);
      expect(line(await logProblems(cell, 'coding-agent', ctx, logs, new Set([join(cell, 'episodes', '0000')])))).toEqual(['episodes/0000/trajectory.jsonl:2', 'episodes/0001/trajectory.jsonl:2', 'episodes/0002/trajectory.jsonl:2']);
      // A folder beside one whose name starts the same is not above it.
      appendFileSync(join(cell, 'episodes', '0002', 'trajectory.jsonl'), '{broken\n');
      expect(line(await logProblems(cell, 'coding-agent', ctx, logs, new Set([join(cell, 'episodes', '000')])))).toEqual(['episodes/0000/trajectory.jsonl:2', 'episodes/0001/trajectory.jsonl:2', 'episodes/0002/trajectory.jsonl:2']);
      expect(line(await logProblems(cell, 'coding-agent', ctx, logs))).toEqual(['episodes/0000/trajectory.jsonl:2', 'episodes/0001/trajectory.jsonl:2', 'episodes/0002/trajectory.jsonl:2', 'episodes/0002/trajectory.jsonl:3']);
    } finally {
      tmp.remove();
    }
  });
});
