import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { age, jsonl, read, tempDir, writeTree } from '../testing';
import { bigymAgent } from './adapter';

let tmp: ReturnType<typeof tempDir>;
let cell: string;
beforeEach(() => {
  tmp = tempDir();
  cell = join(tmp.path, 'move_plate');
});
afterEach(() => tmp.remove());

const run = {
  runner: 'bigym-agent', task: 'move_plate', harness: 'codex', model: 'gpt-6-luna', effort: 'high', interface: 'strict',
  budget_steps: 101000, steps_used: 2 * 200 + 812 + 300 + 3 * 200 + 100, resets: 5, status: 'running', verdict: null,
  tokens: { input: 1200000, cached_input: 800000, output: 90000, reasoning: 40000 }, cost: { estimate_usd: 3.12, billed_usd: null },
};
const ledger = [
  { t: 1764403300.0, seed: 620003, version: 'v001', steps: 812, success: false, fell: false },
  { t: 1764403400.0, seed: 620004, version: 'v001', steps: 300, success: true, fell: false },
  { t: 1764403500.0, seed: 620005, version: 'v002', steps: 0, success: false, fell: true },
  { t: 1764403600.0, seed: 620006, version: 'v002', steps: 0, success: false, fell: false },
  { t: 1764403700.0, seed: 620007, version: 'v002', steps: 100, success: true, fell: false },
];
const evalSummary = (version: string, extra: object = {}) => ({
  version, success_rate: 0.5, n_episodes: 4,
  episodes: [{ seed: 900001, success: true }, { seed: 900002, success: false }, { seed: 900003, success: true }, { seed: 900004, success: false }],
  interface: 'strict', image_cap: '84x84', protocol_violations: [], rejected: [], spot_check: { n: 10, identical: true }, ...extra,
});
const sandbox = { interface: 'strict', image_cap: '84x84', slew: false, tier: 'standard', allow_external_cameras: false };
const base = { 'run.json': run, 'sandbox_config.json': sandbox, 'ledger.jsonl': jsonl(ledger) };

describe('bigym-agent: budget', () => {
  it('charges 200 steps a reset plus the episode steps, and agrees with run.json', async () => {
    writeTree(cell, { ...base, 'policies/v001.py': '', 'policies/v002.py': '' });
    const { cell: c, labels, runnerCostUsd } = await read(bigymAgent, cell);
    expect(c.budget).toEqual({ unit: 'steps', used: 2212, total: 101000 });
    expect(c.problems).toEqual([]);
    expect(c.tokens).toEqual({ input: 1200000, cached_input: 800000, output: 90000, reasoning: 40000 });
    // The runner's own figure is kept apart: the estimate is tokens at list prices, made in main/prices.ts.
    expect([c.cost_usd_estimate, runnerCostUsd, c.cost_usd_billed]).toEqual([null, 3.12, null]);
    expect(labels).toEqual({ harness: 'codex', model: 'gpt-6-luna', condition: 'strict', effort: 'high' });
  });

  it('reports a ledger that disagrees with steps_used', async () => {
    writeTree(cell, { ...base, 'run.json': { ...run, steps_used: 5000 }, 'policies/v001.py': '' });
    const { cell: c } = await read(bigymAgent, cell);
    expect(c.problems).toEqual([{ file: 'ledger.jsonl', message: expect.stringContaining('2212 steps'), severity: 'warning' }]);
  });

  it('reports a malformed ledger line with its number, counts the lines after it, and holds a partial last line', async () => {
    const lines = jsonl(ledger).split('\n');
    lines.splice(2, 0, '{"seed": 1, "steps": ');
    writeTree(cell, { ...base, 'ledger.jsonl': lines.join('\n'), 'policies/v001.py': '' });
    appendFileSync(join(cell, 'ledger.jsonl'), '{"seed": 620008, "steps": 50');
    const { cell: c } = await read(bigymAgent, cell);
    expect(c.budget.used).toBe(2212);
    expect(c.problems).toEqual([{ file: 'ledger.jsonl', line: 3, message: expect.stringContaining('malformed JSON'), severity: 'error' }]);
  });
});

describe('bigym-agent: states', () => {
  it('is void when the session ended with no version beyond the template, and running while it has none yet', async () => {
    writeTree(cell, { ...base, 'run.json': { ...run, status: 'finished' } });
    expect((await read(bigymAgent, cell)).cell.state).toBe('void');
    writeTree(cell, base);
    expect((await read(bigymAgent, cell)).cell.state).toBe('running');
  });

  it('is running while the session runs', async () => {
    writeTree(cell, { ...base, 'policies/v001.py': '' });
    expect((await read(bigymAgent, cell)).cell.state).toBe('running');
  });

  it('is evaluating while progress grows without a summary', async () => {
    writeTree(cell, { ...base, 'run.json': { ...run, status: 'finished' }, 'policies/v001.py': '', 'eval/v001/progress.jsonl': jsonl([{ t: 1, index: 0, seed: 900001, success: true }]) });
    const { cell: c } = await read(bigymAgent, cell);
    expect(c.state).toBe('evaluating');
    expect(c.episodes.ended).toBe(1);
  });

  it('is EVAL FAILED when the run stopped and its evaluation stalled for 10 minutes without a summary', async () => {
    writeTree(cell, { ...base, 'run.json': { ...run, status: 'finished' }, 'policies/v001.py': '', 'eval/v001/progress.jsonl': jsonl([{ index: 0, seed: 1, success: true }]) });
    age(cell, ['eval/v001/progress.jsonl'], 11 * 60_000);
    expect((await read(bigymAgent, cell)).cell.state).toBe('eval_failed');
  });

  it('is scored once the submission summary exists, with its success rate and seeds as units', async () => {
    writeTree(cell, { ...base, 'run.json': { ...run, status: 'finished' }, 'policies/v001.py': '', 'policies/v002.py': '', 'eval/v002/summary.json': evalSummary('v002') });
    const { cell: c, units } = await read(bigymAgent, cell);
    expect(c.state).toBe('scored');
    expect(c.success_rate).toBe(0.5);
    expect(c.episodes).toEqual({ planned: 4, ended: 4, scored: 4, excluded: 0, successes: 2 });
    expect(units.map((u) => [u.id, u.success])).toEqual([['900001', true], ['900002', false], ['900003', true], ['900004', false]]);
  });

  it("stays running while the session runs, a version's summary being that version's score", async () => {
    writeTree(cell, { ...base, 'policies/v001.py': '', 'policies/v002.py': '', 'eval/v001/summary.json': evalSummary('v001') });
    const read0 = await read(bigymAgent, cell);
    expect(read0.cell.state).toBe('running');
    expect(read0.versionScores).toEqual({ v001: 0.5 });
  });

  it("is void when run.json's verdict says so, though policies exist", async () => {
    writeTree(cell, { ...base, 'run.json': { ...run, status: 'finished', verdict: 'void' }, 'policies/v001.py': '' });
    expect((await read(bigymAgent, cell)).cell.state).toBe('void');
  });

  it('is unscored when the session ended with nothing evaluated (--no-eval), never plain finished', async () => {
    writeTree(cell, { ...base, 'run.json': { ...run, status: 'finished' }, 'policies/v001.py': '' });
    expect((await read(bigymAgent, cell)).cell.state).toBe('unscored');
  });

  it('is interrupted and still scored when its summary exists, and says so', async () => {
    writeTree(cell, { ...base, 'run.json': { ...run, status: 'interrupted' }, 'policies/v001.py': '', 'eval/v001/summary.json': evalSummary('v001') });
    const { cell: c } = await read(bigymAgent, cell);
    expect([c.state, c.success_rate]).toEqual(['interrupted', 0.5]);
    expect(c.problems.map((p) => p.message)).toContain("interrupted, and still scored: v001's evaluation summary exists");
  });

  it('is interrupted when run.json says so', async () => {
    writeTree(cell, { ...base, 'run.json': { ...run, status: 'interrupted' }, 'policies/v001.py': '' });
    expect((await read(bigymAgent, cell)).cell.state).toBe('interrupted');
  });

  it('scores a rejected policy 0 and says why', async () => {
    writeTree(cell, { ...base, 'policies/v001.py': '', 'eval/v001/summary.json': evalSummary('v001', { rejected: ['import mujoco'] }) });
    const { cell: c, units } = await read(bigymAgent, cell);
    expect(c.success_rate).toBe(0);
    expect(units.every((u) => u.success === false)).toBe(true);
    expect(c.problems[0]?.message).toContain('v001 rejected, scores 0: the policy imported the simulator (import mujoco)');
  });

  it('holds the submission to what its summary states: each entry a seed, each success true or false, as many as n_episodes', async () => {
    const episodes = [{ seed: 900001, success: true }, { seed: 900002, success: 'yes' }, { success: true }, { seed: 900004, success: false }];
    writeTree(cell, { ...base, 'policies/v001.py': '', 'eval/v001/summary.json': evalSummary('v001', { n_episodes: 100, success_rate: 0.5, episodes }) });
    const { cell: c, units, integrity } = await read(bigymAgent, cell);
    expect(units.map((u) => [u.id, u.scored, u.success])).toEqual([
      ['900001', true, true],
      ['900002', false, null],
      ['900004', true, false],
    ]);
    expect(c.success_rate).toBe(0.5);
    expect(integrity?.map((p) => `${p.file}: ${p.message}`)).toEqual([
      'eval/v001/summary.json: 1 entry (episodes[2]) without a whole-number seed: not counted',
      'eval/v001/summary.json: 1 seed (900002) with a success that is not true or false: left unscored',
      'eval/v001/summary.json: n_episodes 100, but it lists 4 episodes',
    ]);
  });

  it('shows a failed spot check and a non-benchmark sandbox', async () => {
    writeTree(cell, {
      ...base,
      'sandbox_config.json': { tier: 'privileged' },
      'policies/v001.py': '',
      'eval/v001/summary.json': evalSummary('v001', { spot_check: { n: 10, identical: false } }),
    });
    const messages = (await read(bigymAgent, cell)).cell.problems.map((p) => p.message);
    expect(messages).toContain('not a benchmark result: tier privileged');
    expect(messages).toContain('v001 failed the spot check: reruns differ, the policy is not deterministic');
  });
});

describe('bigym-agent: the board (an official evaluation only)', () => {
  const official = evalSummary('v001', { n_episodes: 100 });
  const boardOf = async (files: Record<string, string | object>) => {
    writeTree(cell, { ...base, 'run.json': { ...run, status: 'finished' }, 'policies/v001.py': '', ...files });
    const { cell: c } = await read(bigymAgent, cell);
    return [c.board, c.board_reasons];
  };

  it('puts an official evaluation on', async () => {
    expect(await boardOf({ 'eval/v001/summary.json': official })).toEqual(['on', []]);
  });

  it('puts the tools ablation on (its own row: the interface is its condition); takes another interface, a 224x224 cap, 10 episodes and two violations off, each said', async () => {
    expect(await boardOf({ 'eval/v001/summary.json': { ...official, interface: 'tools' } })).toEqual(['on', []]);
    const summary = { ...official, interface: 'free', image_cap: '224x224', n_episodes: 10, protocol_violations: ['a', 'b'] };
    expect(await boardOf({ 'eval/v001/summary.json': summary })).toEqual(['off', ["interface free; the board's is strict, or tools for the ablation", 'image cap 224x224; the board\'s is 84x84', '10 evaluation episodes; the board\'s is 100', '2 protocol violations']]);
  });

  it('takes a privileged tier, external cameras, slew, a rejection and a failed spot check off', async () => {
    const summary = { ...official, rejected: ['import mujoco'], spot_check: { n: 10, identical: false } };
    const box = { ...sandbox, tier: 'privileged', allow_external_cameras: true, slew: true };
    expect(await boardOf({ 'eval/v001/summary.json': summary, 'sandbox_config.json': box })).toEqual(['off', [
      'rejected: the policy imported the simulator', 'spot check failed: reruns differ', 'slew on', "tier privileged; the board's is standard", 'external cameras allowed',
    ]]);
  });

  it('is off until the submission has a summary, and when sandbox_config.json is missing', async () => {
    expect(await boardOf({})).toEqual(['off', ['v001 has no evaluation summary: unscored']]);
    expect((await boardOf({ 'eval/v001/summary.json': official, 'sandbox_config.json': '{"tier": ' }))[1]).toEqual(['sandbox_config.json missing or unreadable: its flags are unknown']);
  });
});
