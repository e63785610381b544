// The integrity rules (runners/FORMATS.md) as a user meets them: the red team's run directories, and every
// command giving the same figures for them.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../runners/testing';
import { runCli } from './run';
import { capture } from './testing';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.remove());

async function json(args: string[]) {
  const { io, out } = capture();
  const code = await runCli([...args.slice(0, 1), '--json', ...args.slice(1)], io);
  return { code, value: code === 0 || out.length ? JSON.parse(out.join('\n')) : null };
}

const sandbox = { interface: 'strict', image_cap: '84x84', slew: false, tier: 'standard', allow_external_cameras: false };
/** A scored bigym cell (an official evaluation of v001) whose summary lists `episodes`. */
function bigym(name: string, harness: string, episodes: { seed: number; success: boolean }[], run: object = {}, summary: object = {}) {
  writeTree(join(tmp.path, name), {
    'run.json': { runner: 'bigym-agent', task: 'move_plate', harness, model: 'm1', effort: 'high', interface: 'strict', budget_steps: 1000, status: 'finished', verdict: 'scored', tokens: { input: 1000, cached_input: 0, output: 100, reasoning: 0 }, ...run },
    'sandbox_config.json': sandbox,
    'ledger.jsonl': '',
    'policies/v001.py': '',
    'eval/v001/summary.json': { version: 'v001', n_episodes: 100, success_rate: episodes.filter((e) => e.success).length / episodes.length, episodes, interface: 'strict', image_cap: '84x84', protocol_violations: [], rejected: [], spot_check: { n: 10, identical: true }, ...summary },
  });
  return join(tmp.path, name);
}
const seeds = (success: (seed: number) => boolean) => Array.from({ length: 100 }, (_, seed) => ({ seed, success: success(seed) }));

describe('one unit, one outcome', () => {
  it('a summary that lists each seed twice (a success, then a failure) is a problem, off the board, and no command counts either outcome', async () => {
    const a = bigym('a/move_plate', 'codex', [...seeds(() => true), ...seeds(() => false)], {}, { success_rate: 0 });
    const b = bigym('b/move_plate', 'claude', seeds(() => false));
    const status = (await json(['status', tmp.path])).value;
    const rowA = status.cells.find((c: { path: string }) => c.path === a);
    expect(rowA.episodes).toEqual({ planned: 100, ended: 100, scored: 0, excluded: 100, successes: 0 });
    expect(rowA.success_rate).toBeNull();
    expect(rowA.board).toBe('off');
    const repeat = 'eval/v001/summary.json';
    expect(rowA.problems).toContainEqual(expect.objectContaining({ file: repeat, message: expect.stringMatching(/^100 seeds given more than once: seed 0 at episodes\[0\] and episodes\[100\] \(success, then failure\);.*100 seeds with two outcomes left unscored$/) }));
    expect(rowA.board_reasons.some((r: string) => r.includes('given more than once'))).toBe(true);

    // The board compares nothing of A; the paired test pairs nothing of A either.
    const board = (await json(['board', tmp.path])).value;
    expect(board.comparisons).toEqual([]);
    const paired = (await json(['mcnemar', a, b])).value;
    expect(paired).toMatchObject({ pairs: 0, only_a: 0, only_b: 0, p_value: 1 });
    expect(paired.excluded).toHaveLength(100);
  });

  it('a stated success_rate the seeds do not give is a problem; the figure is the seeds\' own', async () => {
    const a = bigym('a/move_plate', 'codex', seeds((s) => s < 30), {}, { success_rate: 0.9 });
    const row = (await json(['status', a])).value.cells[0];
    expect(row.success_rate).toBe(0.3);
    expect(row.board).toBe('off');
    expect(row.problems).toContainEqual(expect.objectContaining({ file: 'eval/v001/summary.json', message: 'success_rate 0.9, but its units give 30/100 = 0.3' }));
  });

  it('a count past its plan is a problem, never a figure', async () => {
    const a = bigym('a/move_plate', 'codex', Array.from({ length: 120 }, (_, seed) => ({ seed, success: true })));
    const row = (await json(['status', a])).value.cells[0];
    expect(row.episodes).toMatchObject({ planned: 100, ended: 120 });
    expect(row.board).toBe('off');
    expect(row.problems).toContainEqual(expect.objectContaining({ message: '120 seeds ended, past the 100 planned: a count cannot exceed its plan' }));
  });

  it('a budget past its plan says how far past in the status table, as the window says it, never a share over 100%', async () => {
    const cell = join(tmp.path, 'std_sdk_m_bare_default');
    const ok = { status: 'evaluated', success: true, engaged: true };
    writeTree(cell, { 'run.json': { runner: 'coding-agent', run: 'std_sdk_m_bare_default', protocol: { episodes: [0, 1] } }, 'summary.json': { run: 'std_sdk_m_bare_default', finished: true, planned: [0, 1], episodes: { '0': ok, '1': ok, '2': ok } } });
    expect((await json(['status', cell])).value.cells[0].budget).toEqual({ unit: 'episodes', used: 3, total: 2 });
    const { io, out } = capture();
    expect(await runCli(['status', cell], io)).toBe(0);
    expect(out.join('\n')).toContain('3/2 episodes (1 past its plan)');
    expect(out.join('\n')).not.toContain('150%');
  });
});

describe('amounts are not negative', () => {
  it('negative tokens in a bigym run.json are a problem naming the field, left out of every sum and of the estimate', async () => {
    const a = bigym('a/move_plate', 'codex', seeds(() => true), { tokens: { input: -9_000_000, cached_input: 0, output: 100, reasoning: 0 } });
    const row = (await json(['status', a])).value.cells[0];
    expect(row.tokens).toEqual({ input: null, cached_input: 0, output: 100, reasoning: 0 });
    expect(row.cost_usd_estimate === null || row.cost_usd_estimate >= 0).toBe(true);
    expect(row.problems).toContainEqual(expect.objectContaining({ file: 'run.json', message: 'tokens.input is -9000000: an amount cannot be negative; left out of every sum' }));
  });

  it('an OpenRouter charge of -7 USD beside 4 and 3 bills 7, not 0, and says which generation', async () => {
    const job = join(tmp.path, 'job');
    const trial = (name: string, charges: number[]) => ({
      [`${name}/config.json`]: { task: { path: `tasks/${name}` } },
      [`${name}/result.json`]: { task_name: name, trial_name: name, verifier_result: { rewards: { reward: 1 } }, agent_result: { n_input_tokens: 10, n_output_tokens: 1 } },
      [`${name}/agent/openrouter_costs.json`]: charges.map((total_cost) => ({ total_cost })),
    });
    writeTree(job, { 'config.json': { job_name: 'job' }, 'result.json': { n_total_trials: 2, stats: {} }, ...trial('t1', [4.0]), ...trial('t2', [3.0, -7.0]) });
    const row = (await json(['status', job])).value.cells[0];
    expect(row.cost_usd_billed).toBe(7);
    expect(row.problems).toContainEqual(expect.objectContaining({ file: 't2/agent/openrouter_costs.json', message: '[1].total_cost is -7: an amount cannot be negative; left out of every sum' }));
  });

  it("a coding-agent episode's negative wall time (a clock stepped back) is a problem naming the episode's field, and takes the run off the board", async () => {
    const cell = join(tmp.path, 'std_sdk_m1_bare_default');
    const protocol = { name: 'std-v2', episodes: [0, 1], max_turns: 200, rgb_resolution: 512, max_actions: 500, timeout_s: 2400 };
    const episodes = { '0': { status: 'evaluated', success: true, engaged: true, tool_calls: 12, actions: 9, wall_s: 30.5 }, '1': { status: 'evaluated', success: false, engaged: true, tool_calls: 4, actions: 3, wall_s: -12 } };
    writeTree(cell, {
      'run.json': { runner: 'coding-agent', run: 'std_sdk_m1_bare_default', cell: { harness: 'sdk', model: 'm1', condition: 'bare', effort: 'default' }, protocol },
      'summary.json': { run: 'std_sdk_m1_bare_default', finished: true, planned: [0, 1], episodes, aggregate: {} },
    });
    const row = (await json(['status', cell])).value.cells[0];
    expect(row.episodes).toMatchObject({ ended: 2, scored: 2, successes: 1 });
    expect(row.board).toBe('off');
    expect(row.problems).toEqual([expect.objectContaining({ file: 'summary.json', message: 'episodes.1.wall_s is -12: an amount cannot be negative; left out of every sum' })]);
  });
});

describe('every figure says where it comes from', () => {
  it('status --explain gives each figure its word and its source, the runner\'s own cost kept apart', async () => {
    const a = bigym('a/move_plate', 'codex', seeds((s) => s < 30), { cost: { estimate_usd: 0.72, billed_usd: null } });
    const { io, out } = capture();
    expect(await runCli(['status', '--explain', a], io)).toBe(0);
    const text = out.join('\n');
    expect(text).toMatch(/^units +100 scored of 100 ended · 100 planned +each unit \(episode, seed, rollout, trial\) once, as the bigym-agent files give it$/m);
    expect(text).toMatch(/^success +30\/100 · 30\.0% · 95% CI 21\.9–39\.6% +successes \/ scored under bigym-agent move_plate's scoring; Wilson 95 % interval$/m);
    expect(text).toMatch(/^board +on bigym-agent move_plate +the rule: the submission evaluated officially/m);
    expect(text).toMatch(/^runner +\$0\.72 +the runner's own figure, shown apart: not used for the estimate$/m);
    // A format whose files count no tokens says so, rather than a bare dash.
    const b = bigym('b/move_plate', 'codex', seeds(() => true), { tokens: undefined });
    const other = capture();
    expect(await runCli(['status', '--explain', b], other.io)).toBe(0);
    expect(other.out.join('\n')).toMatch(/^tokens +– +the bigym-agent files record no token counts$/m);
    // A fraction of a cent is that fraction, not "$0.00": a small model's run is cheap, not free.
    const c = bigym('c/move_plate', 'codex', seeds(() => true), { cost: { estimate_usd: 0.00042, billed_usd: null } });
    const cheap = capture();
    expect(await runCli(['status', '--explain', c], cheap.io)).toBe(0);
    expect(cheap.out.join('\n')).toMatch(/^runner +\$0\.00042 +the runner's own figure/m);
  });
});
