import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../runners/testing';
import { runCli } from './run';
import { capture } from './testing';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.remove());

function codingCell(name: string, episodes: Record<string, object>): string {
  const dir = join(tmp.path, name);
  writeTree(dir, {
    'run.json': { runner: 'coding-agent', run: name, protocol: { episodes: Object.keys(episodes).map(Number) } },
    'summary.json': { run: name, finished: true, episodes },
  });
  return dir;
}

const ok = (success: boolean) => ({ status: 'evaluated', success, engaged: true });

describe('cellwatch mcnemar', () => {
  it('prints the JSON the issue names, with exclusions from either side', async () => {
    const a = codingCell('std_a', { '0': ok(true), '1': ok(false), '2': ok(false), '3': { status: 'rate_limited', engaged: true }, '4': ok(true) });
    const b = codingCell('std_b', { '0': ok(true), '1': ok(true), '2': ok(true), '3': ok(true), '4': { status: 'infra_error', engaged: false } });
    const { io, out } = capture();
    expect(await runCli(['mcnemar', '--json', a, b], io)).toBe(0);
    const json = JSON.parse(out.join('\n'));
    expect(Object.keys(json)).toEqual(['a', 'b', 'pairs', 'both', 'only_a', 'only_b', 'neither', 'statistic', 'p_value', 'excluded']);
    expect(json).toEqual({
      a: `local:${a}`, b: `local:${b}`, pairs: 3, both: 1, only_a: 0, only_b: 2, neither: 0, statistic: 0, p_value: 0.5,
      excluded: [{ id: '3', a: 'rate_limited', b: null }, { id: '4', a: null, b: 'infra_error' }],
    });
  });

  it('takes a run named for a model id with an @ as that run, not a version or agent of another', async () => {
    const a = codingCell('std_sdk_claude-sonnet-4@20250514_bare_default', { '0': ok(true), '1': ok(false) });
    const b = codingCell('std_sdk_gpt-6_bare_default', { '0': ok(false), '1': ok(false) });
    const paired = capture();
    expect(await runCli(['mcnemar', '--json', a, b], paired.io)).toBe(0);
    expect(JSON.parse(paired.out.join('\n'))).toMatchObject({ a: `local:${a}`, pairs: 2, only_a: 1, neither: 1 });
    const listed = capture();
    expect(await runCli(['episodes', '--json', a], listed.io)).toBe(0);
    expect(JSON.parse(listed.out.join('\n'))).toMatchObject({ cell: `local:${a}`, episodes: [{ id: '0', success: true }, { id: '1', success: false }] });
  });

  it('refuses a run paired with itself, however it is named, exit 2, as the window does', async () => {
    const a = codingCell('std_a', { '0': ok(true), '1': ok(false) });
    for (const json of [false, true]) {
      const { io, err } = capture();
      expect(await runCli(['mcnemar', ...(json ? ['--json'] : []), a, `${a}/`], io)).toBe(2);
      expect(err.join('\n')).toContain('std_a is both A and B: every episode agrees with itself, so there is nothing to test');
    }
  });

  it('refuses cells whose episode ids diverge, exit 2, listing each side', async () => {
    const a = codingCell('std_a', { '0': ok(true), '1': ok(true), '7': ok(true) });
    const b = codingCell('std_b', { '0': ok(true), '1': ok(true), '8': ok(false), '9': ok(false) });
    const { io, err } = capture();
    expect(await runCli(['mcnemar', a, b], io)).toBe(2);
    expect(err.join('\n')).toContain('only in A (1): 7');
    expect(err.join('\n')).toContain('only in B (2): 8 9');
  });

  it('compares two policy versions of a bigym cell as CELL@vNNN', async () => {
    const dir = join(tmp.path, 'move_plate');
    const summary = (version: string, wins: boolean[]) => ({ version, success_rate: 0, episodes: wins.map((success, i) => ({ seed: 900 + i, success })), rejected: [] });
    writeTree(dir, {
      'run.json': { runner: 'bigym-agent', status: 'finished' },
      'policies/v001.py': '', 'policies/v002.py': '',
      'eval/v001/summary.json': summary('v001', [false, false, false, true]),
      'eval/v002/summary.json': summary('v002', [true, true, true, true]),
    });
    const { io, out } = capture();
    expect(await runCli(['mcnemar', '--json', `${dir}@v001`, `${dir}@v002`], io)).toBe(0);
    expect(JSON.parse(out.join('\n'))).toMatchObject({ a: `local:${dir}@v001`, b: `local:${dir}@v002`, pairs: 4, only_b: 3, p_value: 0.25 });
  });

  it('says which side is wrong: a version without evaluation, a version on another format, two formats', async () => {
    const a = codingCell('std_a', { '0': ok(true) });
    writeTree(join(tmp.path, 'task'), { 'run.json': { runner: 'bigym-agent' }, 'policies/v001.py': '' });
    for (const [args, message] of [
      [[`${join(tmp.path, 'task')}@v001`, `${join(tmp.path, 'task')}@v001`], 'v001 has no evaluation summary'],
      [[`${a}@v001`, a], 'std_a has no policy version or agent v001'],
      [[a, join(tmp.path, 'task')], 'compare two cells of one format'],
    ] as const) {
      const { io, err } = capture();
      expect(await runCli(['mcnemar', ...args], io)).toBe(2);
      expect(err.join('\n')).toContain(message);
    }
  });

  it('pairs two NeMo Gym harnesses by their rollouts files, and two agents of one collection as FILE@AGENT', async () => {
    const real = (agent: string, part: string) => readFileSync(join(import.meta.dirname, '../../runners/nemo-gym/fixtures/responses_api_agents', agent, 'data', `example_math_rollouts${part}`), 'utf8');
    for (const agent of ['claude_code_agent', 'hermes_agent']) writeTree(tmp.path, { [`${agent}.jsonl`]: real(agent, '.jsonl') });
    writeTree(tmp.path, { 'both.jsonl': real('claude_code_agent', '.jsonl') + real('hermes_agent', '.jsonl') });
    const files = capture();
    expect(await runCli(['mcnemar', '--json', join(tmp.path, 'claude_code_agent.jsonl'), join(tmp.path, 'hermes_agent.jsonl')], files.io)).toBe(0);
    expect(JSON.parse(files.out.join('\n'))).toMatchObject({ pairs: 5, both: 1, only_a: 0, only_b: 0, neither: 4, p_value: 1 });
    const agents = capture();
    const both = join(tmp.path, 'both.jsonl');
    expect(await runCli(['mcnemar', '--json', `${both}@math_with_judge_claude_code_agent`, `${both}@math_with_judge_hermes_agent`], agents.io)).toBe(0);
    expect(JSON.parse(agents.out.join('\n'))).toMatchObject({ a: `local:${both}@math_with_judge_claude_code_agent`, pairs: 5, both: 1, neither: 4 });
    // In words, the units are the collection's: rollouts.
    const said = capture();
    expect(await runCli(['mcnemar', `${both}@math_with_judge_claude_code_agent`, `${both}@math_with_judge_hermes_agent`], said.io)).toBe(0);
    expect(said.out.join('\n')).toContain('B wins 0 rollouts that A fails and loses 0; p = 1: no evidence of a difference at the 5% level.');
    // `episodes` names a side as mcnemar does: one agent's units, as they pair.
    const units = capture();
    expect(await runCli(['episodes', '--json', `${both}@math_with_judge_hermes_agent`], units.io)).toBe(0);
    const listed = JSON.parse(units.out.join('\n')) as { cell: string; episodes: { id: string; success: boolean }[] };
    expect(listed.cell).toBe(`local:${both}@math_with_judge_hermes_agent`);
    expect(listed.episodes.map((u) => u.id)).toEqual(['0#0', '1#0', '2#0', '3#0', '4#0']);
    const unknown = capture();
    expect(await runCli(['episodes', `${both}@nobody`], unknown.io)).toBe(2);
    expect(unknown.err.join('\n')).toContain('both has no policy version or agent nobody (its agents: math_with_judge_claude_code_agent, math_with_judge_hermes_agent)');
  });

  it('names an agent whose name holds an @ and a / as FILE@AGENT, in a folder named with an @', async () => {
    const real = (agent: string) => readFileSync(join(import.meta.dirname, '../../runners/nemo-gym/fixtures/responses_api_agents', agent, 'data', 'example_math_rollouts.jsonl'), 'utf8');
    // Each harness's rows under an agent's name of its own, as a collection of two agents writes them.
    const renamed = (agent: string, name: string) => real(agent).replace(/"agent_ref":\s*\{[^}]*\}/g, JSON.stringify({ agent_ref: { type: 'responses_api_agents', name } }).slice(1, -1));
    const both = join(tmp.path, 'runs@2026', 'both.jsonl');
    writeTree(join(tmp.path, 'runs@2026'), { 'both.jsonl': renamed('claude_code_agent', 'team/claude@2') + renamed('hermes_agent', 'hermes') });
    const agents = capture();
    expect(await runCli(['mcnemar', '--json', `${both}@team/claude@2`, `${both}@hermes`], agents.io)).toBe(0);
    expect(JSON.parse(agents.out.join('\n'))).toMatchObject({ a: `local:${both}@team/claude@2`, b: `local:${both}@hermes`, pairs: 5, both: 1, neither: 4 });
    const unknown = capture();
    expect(await runCli(['episodes', `${both}@team/nobody@2`], unknown.io)).toBe(2);
    expect(unknown.err.join('\n')).toContain('both has no policy version or agent team/nobody@2 (its agents: team/claude@2, hermes)');
    const missing = capture();
    expect(await runCli(['episodes', `${join(tmp.path, 'runs@2026', 'none.jsonl')}@hermes`], missing.io)).toBe(2);
    expect(missing.err.join('\n')).toContain('none.jsonl');
  });
});
