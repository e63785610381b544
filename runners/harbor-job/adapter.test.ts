import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { context, read, tempDir, writeTree } from '../testing';
import { harborJob } from './adapter';
import { trialUnits } from './trials';

const REAL = join(import.meta.dirname, 'fixtures', 'real-trial-results');

/** A job folder around real trial results whose file names start with `prefix`. */
function realJob(root: string, name: string, prefix: string, jobResult: object): string {
  const dir = join(root, name);
  const files: Record<string, string | object> = { 'config.json': { job_name: name, n_attempts: 1 }, 'result.json': jobResult };
  for (const file of readdirSync(REAL).filter((f) => f.startsWith(prefix))) {
    const result = JSON.parse(readFileSync(join(REAL, file), 'utf8'));
    files[`${result.trial_name}/config.json`] = result.config;
    files[`${result.trial_name}/result.json`] = readFileSync(join(REAL, file), 'utf8');
  }
  writeTree(dir, files);
  return dir;
}

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.remove());

describe('harbor-job on real trial results', () => {
  it('scores terminus-2 trials by reward and sums their tokens (input includes cached)', async () => {
    const dir = realJob(tmp.path, 'example', 'example_output', { n_total_trials: 4, stats: { n_completed_trials: 3, n_errored_trials: 0 }, finished_at: null });
    const { cell, units, labels } = await read(harborJob, dir);
    expect(cell.budget).toEqual({ unit: 'trials', used: 3, total: 4 });
    expect(cell.episodes).toEqual({ planned: 4, ended: 3, scored: 3, excluded: 0, successes: 1 });
    expect(cell.success_rate).toBeCloseTo(1 / 3, 12);
    expect(cell.tokens).toEqual({ input: 176436 + 190127 + 344857, cached_input: 0, output: 9455 + 9042 + 19090, reasoning: null });
    expect(cell.cost_usd_estimate).toBeNull();
    expect(units.map((u) => [u.id, u.success])).toEqual([
      ['scientific_computing_task_0003', false],
      ['scientific_computing_task_0002', true],
      ['scientific_computing_task_0001', false],
    ]);
    expect(labels.harness).toBe('terminus-2-nemo-gym');
    expect(cell.problems).toEqual([]);
  });

  it('keeps tokens null for an agent that reports none (oracle), and is finished once the job says so', async () => {
    const dir = realJob(tmp.path, 'tb', 'terminal_bench', { n_total_trials: 5, stats: {}, finished_at: '2026-05-10T18:12:00.000000' });
    const { cell, benchmarks } = await read(harborJob, dir);
    expect(cell.tokens).toEqual({ input: null, cached_input: null, output: null, reasoning: null });
    // What a hosts file's `benchmarks:` finds it by: the trials' dataset source and task folders.
    expect(benchmarks).toEqual(['break-filter-js-from-html', 'gpt2-codegolf', 'llm-inference-batching-scheduler', 'reshard-c4-data', 'terminal-bench', 'write-compressor']);
    expect(cell.success_rate).toBe(1);
    expect(cell.state).toBe('finished');
  });

  it("sums what OpenRouter charged (agent/openrouter_costs.json) as the bill, apart from the runner's figure and the estimate", async () => {
    const dir = realJob(tmp.path, 'routed', 'example_output', { n_total_trials: 4, stats: {} });
    const [first, second, third] = readdirSync(dir).filter((name) => name.includes('__')).sort();
    writeTree(dir, {
      [`${first}/agent/openrouter_costs.json`]: [{ id: 'gen-1', cost: 0.0125 }, { id: 'gen-2', usage: { cost: 0.0075 } }],
      [`${second}/agent/openrouter_costs.json`]: { generations: [{ id: 'gen-3', total_cost: 0.25 }, { id: 'gen-4' }] },
      [`${third}/agent/openrouter_costs.json`]: '[{"id": "gen-5", "cost": 0.1',
    });
    const { cell, runnerCostUsd } = await read(harborJob, dir);
    expect(cell.cost_usd_billed).toBeCloseTo(0.27, 12);
    expect(cell.cost_usd_estimate).toBeNull();
    expect(runnerCostUsd).not.toBeCloseTo(0.27, 2);
    expect(cell.problems.map((p) => p.file)).toEqual([`${second}/agent/openrouter_costs.json`, `${third}/agent/openrouter_costs.json`]);
    expect(cell.problems[0]?.message).toBe(`${second}/agent/openrouter_costs.json: 1 generation without a charge (first at index 1); counted as nothing`);
    expect(cell.problems[1]?.message).toMatch(/is not valid JSON .*its charges are not counted$/);
  });

  it('has no bill where no trial kept its charges', async () => {
    const dir = realJob(tmp.path, 'direct', 'example_output', { n_total_trials: 4, stats: {} });
    expect((await read(harborJob, dir)).cell.cost_usd_billed).toBeNull();
  });

  it("shows each trial as its result.json says it: task, agent, reward, times, tokens, the runner's cost apart, the exception; and its text files", async () => {
    const dir = realJob(tmp.path, 'example', 'example_output', { n_total_trials: 4, stats: {} });
    const { detail } = await harborJob.read(dir, context(), { detail: true });
    const trial = detail?.episodes.find((e) => e.id.startsWith('scientific_computing_task_0003'));
    expect(detail?.episodes.map((e) => [e.status, e.scored])).toEqual([['ended', true], ['ended', true], ['ended', true]]);
    expect(Object.fromEntries(trial?.facts?.map((f) => [f.label, f.value]) ?? [])).toEqual({
      task: 'scientific_computing_task_0003',
      source: 'scientific_computing',
      agent: 'terminus-2-nemo-gym 2.0.0',
      reward: '0',
      outcome: 'failed',
      started: '2026-02-26T06:45:02.889351Z',
      finished: '2026-02-26T06:55:12.339171Z',
      took: '609.5 s',
      'input tokens': '344,857',
      'cached input tokens': '0',
      'output tokens': '19,090',
      'agent turns': '17',
    });
    expect(trial?.files).toEqual([`${trial?.id}/trial.log`, `${trial?.id}/verifier/test-stdout.txt`]);
  });

  it('opens a trial as a transcript from its real ATIF trajectory: messages, each tool call beside its result, step times and tokens', async () => {
    const dir = realJob(tmp.path, 'atif', 'example_output', { n_total_trials: 4, stats: {} });
    const [trial] = readdirSync(dir).filter((name) => name.includes('__')).sort();
    writeTree(dir, { [`${trial}/agent/trajectory.json`]: readFileSync(join(import.meta.dirname, 'fixtures', 'atif', 'trajectory_pass.json'), 'utf8') });
    const transcript = await harborJob.capabilities.transcripts?.read(dir, trial as string, context());
    expect(transcript?.agent).toBe('claude-code 2.1.178 claude-opus-4-6');
    const [first, second] = transcript?.items ?? [];
    expect(first).toMatchObject({ kind: 'input', role: 'user (step 1)', offsetS: 0 });
    // On the trajectory's time axis: the model's answer took from the step before (12:35:24.221) to its own (12:35:30.872).
    expect(second).toMatchObject({ kind: 'message', role: 'assistant (step 2 · 34547 in, 220 out)', offsetS: 6.651, durationS: 6.651 });
    const read = transcript?.items.find((i) => i.kind === 'call' && i.callId === 'toolu_vrtx_01DMAvK6aCFYSU2EZmeSe8Ha');
    expect(read).toMatchObject({ kind: 'call', name: 'Read', arguments: expect.stringContaining('providers_llmisvc.go'), output: expect.stringMatching(/^1\t\/\*/) });
    expect(transcript?.items.filter((i) => i.kind === 'call' && i.output === null)).toEqual([]);
    // The verdict is the trial's own result.json (its reward 0), whatever the trajectory it holds.
    expect(transcript?.reward).toBe(0);
    expect(await harborJob.capabilities.transcripts?.read(dir, 'no-such-trial', context())).toBeNull();
    expect(await harborJob.capabilities.transcripts?.read(dir, '../etc', context())).toBeNull();
  });

  it('counts legacy n_errors as errored trials', async () => {
    const dir = realJob(tmp.path, 'legacy', 'terminal_bench', { n_total_trials: 5, stats: { n_trials: 5, n_errors: 2 } });
    expect((await read(harborJob, dir)).cell.problems).toEqual([{ file: 'result.json', message: '2 trials errored (runner said)', severity: 'error' }]);
  });

  it('keeps the last good job result when it is caught half-written', async () => {
    const dir = realJob(tmp.path, 'live', 'terminal_bench', { n_total_trials: 5, stats: {} });
    const ctx = context();
    await harborJob.read(dir, ctx);
    writeFileSync(join(dir, 'result.json'), '{"n_total_trials": 5, "st');
    const { cell } = await harborJob.read(dir, ctx);
    expect(cell.budget.total).toBe(5);
    expect(cell.problems[0]?.message).toContain('showing the last good copy');
  });
});

describe('harbor-job pairing units', () => {
  it('suffixes the k-th attempt of a task by started_at, reading offset-less times as local time', () => {
    const previous = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      const trial = (dir: string, started_at: string, reward: number) => ({ dir, result: { task_name: 'fix-bug', started_at, verifier_result: { rewards: { reward } } } });
      // 09:00 in New York is 14:00 UTC: after 13:00Z, before 15:00Z. Only the local trial fails.
      const units = trialUnits([trial('c', '2026-11-29T09:00:00.123456', 0), trial('a', '2026-11-29T15:00:00Z', 1), trial('b', '2026-11-29T13:00:00Z', 1)]);
      expect(units.map((u) => [u.id, u.success])).toEqual([
        ['fix-bug', true],
        ['fix-bug#2', false],
        ['fix-bug#3', true],
      ]);
    } finally {
      process.env.TZ = previous;
    }
  });

  it('fails an ended trial without a reward', () => {
    expect(trialUnits([{ dir: 'x', result: { task_name: 't', exception_info: { exception_type: 'AgentTimeoutError' } } }])).toEqual([
      { id: 't', status: 'error', success: false, scored: true },
    ]);
  });
});

describe('harbor-job integrity', () => {
  it('counts a trial folder copied beside its original once, unscored when the copy says otherwise, and says so', async () => {
    const dir = realJob(tmp.path, 'example', 'example_output', { n_total_trials: 3, stats: {} });
    const [first, second] = readdirSync(dir).filter((name) => name.includes('__')).sort() as [string, string];
    const copy = (from: string, to: string, reward: number) => {
      const result = JSON.parse(readFileSync(join(dir, from, 'result.json'), 'utf8'));
      writeTree(dir, { [`${to}/config.json`]: result.config, [`${to}/result.json`]: { ...result, verifier_result: { rewards: { reward } } } });
      return result;
    };
    // The first as it was (it failed), the second said to have failed where it succeeded.
    copy(first, `${first} copy`, 0);
    copy(second, `${second}.bak`, 0);
    const { cell, units, integrity, detail } = await harborJob.read(dir, context(), { detail: true });
    // The Episodes tab as the units: the copies not counted, the trial given with two outcomes not scored.
    expect(detail?.episodes.filter((e) => e.status === 'repeated').map((e) => e.id).sort()).toEqual([`${first} copy`, second, `${second}.bak`]);
    expect(detail?.episodes.find((e) => e.id === first)).toMatchObject({ status: 'ended', scored: true, success: false });
    expect(detail?.episodes.filter((e) => e.status === 'ended')).toHaveLength(2);
    expect(cell.budget).toEqual({ unit: 'trials', used: 3, total: 3 });
    expect(cell.episodes).toEqual({ planned: 3, ended: 3, scored: 2, excluded: 1, successes: 0 });
    expect(units.find((u) => second.startsWith(u.id))).toMatchObject({ status: 'repeated', scored: false });
    // Tokens as the three trials give them, each once (as in the test of the real results above).
    expect(cell.tokens.input).toBe(176436 + 190127 + 344857);
    expect(integrity?.map((p) => `${p.file}: ${p.message}`)).toEqual([
      `example: 2 trials given more than once: trial ${first} at ${first} and ${first} copy; trial ${second} at ${second} and ${second}.bak (success, then failure); 1 trial with two outcomes left unscored`,
    ]);
  });

  it('leaves a negative token count out of the sum, which breaks the integrity rules', async () => {
    const dir = realJob(tmp.path, 'example', 'example_output', { n_total_trials: 3, stats: {} });
    const [first] = readdirSync(dir).filter((name) => name.includes('__')).sort() as [string];
    const result = JSON.parse(readFileSync(join(dir, first, 'result.json'), 'utf8'));
    const input = result.agent_result.n_input_tokens;
    writeTree(dir, { [`${first}/result.json`]: { ...result, agent_result: { ...result.agent_result, n_input_tokens: -input } } });
    const { cell, integrity } = await read(harborJob, dir);
    expect(cell.tokens.input).toBe(176436 + 190127 + 344857 - input);
    expect(integrity?.map((p) => `${p.file}: ${p.message}`)).toEqual([`${first}/result.json: agent_result.n_input_tokens is ${-input}: an amount cannot be negative; left out of every sum`]);
  });
});
