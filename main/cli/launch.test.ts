import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { restoreEnv, tempDir } from '../../runners/testing';
import { RunManager } from '../launch/runs';
import { runCli } from './run';
import { capture } from './testing';

const GPU_DIR = join(import.meta.dirname, '..', 'gpu');
const saved = { ...process.env };
let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
  process.env.XDG_CONFIG_HOME = join(tmp.path, 'config');
  process.env.XDG_DATA_HOME = join(tmp.path, 'data');
});
afterEach(() => {
  restoreEnv(saved);
  tmp.remove();
});


describe('cellwatch launch', () => {
  it('dry-runs the coding-agent profile on the GPU with the most free memory', async () => {
    process.env.CELLWATCH_NVIDIA_SMI = join(GPU_DIR, 'fake', 'nvidia-smi');
    process.env.FAKE_SMI_GPUS = join(tmp.path, 'gpus.csv');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(process.env.FAKE_SMI_GPUS, '0, NVIDIA H200, 143771, 140000, 3000, 90\n1, NVIDIA H200, 143771, 16959, 126199, 10\n');
    const { io, out } = capture();
    expect(await runCli(['launch', '--profile', 'coding-agent', '--set', 'repo=/src/ca', '--set', 'condition=nav', '--dry-run'], io)).toBe(0);
    const text = out.join('\n');
    expect(text).toMatch(/^name {2}ui_sdk_fable-5_nav_default_\d{8}-\d{6}$/m);
    expect(text).toMatch(/^run {3}python coding-agent\/stdrun.py run ui_sdk_fable-5_nav_default_\S+ --nonstd$/m);
    expect(text).toContain('env   CUDA_VISIBLE_DEVICES=1');
  });

  it('dry-runs the knobs that change a result: bigym interface, image cap, evaluation, parallel sessions; a coding-agent resume spec', async () => {
    const bigym = capture();
    const set = ['interface=tools', 'image_cap=128x128', 'eval_episodes=10', 'no_eval=yes', 'parallel=2'].flatMap((v) => ['--set', v]);
    expect(await runCli(['launch', '--profile', 'bigym-agent', '--set', 'checkout=/src/bigym', ...set, '--name', 'ui_knobs', '--dry-run'], bigym.io)).toBe(0);
    expect(bigym.out.find((l) => l.startsWith('run '))).toBe(
      'run   uv run bigym-agent run --task move_plate --harness codex --model gpt-6-luna --effort high --root /src/bigym/bigym-agent-runs/ui_knobs --interface tools --image-cap 128x128 --eval-episodes 10 --no-eval --parallel 2',
    );
    const plain = capture();
    expect(await runCli(['launch', '--profile', 'bigym-agent', '--set', 'checkout=/src/bigym', '--name', 'ui_plain', '--dry-run'], plain.io)).toBe(0);
    expect(plain.out.find((l) => l.startsWith('run '))).toMatch(/--interface strict --image-cap 84x84$/);
    const resume = capture();
    expect(await runCli(['launch', '--profile', 'coding-agent', '--set', 'repo=/src/ca', '--set', 'episodes=3,7,12', '--name', 'ui_again', '--dry-run'], resume.io)).toBe(0);
    expect(resume.out.find((l) => l.startsWith('run '))).toBe("run   python coding-agent/stdrun.py run ui_again --nonstd --episodes '3,7,12'");
    const wrong = capture();
    expect(await runCli(['launch', '--profile', 'bigym-agent', '--set', 'interface=open', '--dry-run'], wrong.io)).not.toBe(0);
    expect(wrong.err.join('\n')).toContain('interface must be one of strict, tools');
  });

  it('launches the demo profile for real: a ui_ cell that grows, found in the registry', async () => {
    const { io, out } = capture();
    expect(await runCli(['launch', '--profile', 'demo', '--set', 'speed=40', '--name', 'my_try'], io)).toBe(0);
    expect(out[0]).toBe('name  ui_my_try');
    const cell = join(tmp.path, 'data', 'cellwatch', 'ui-runs', 'ui_my_try');
    expect(out.slice(1, 3)).toEqual(['on    local', `cell  ${cell}`]);
    const runs = new RunManager(join(tmp.path, 'config', 'cellwatch', 'launched.json'));
    const [run] = await runs.list();
    expect([run?.name, run?.state]).toEqual(['ui_my_try', 'running']);
    const { existsSync } = await import('node:fs');
    await expect.poll(() => existsSync(join(cell, 'summary.json'))).toBe(true);
    await runs.stop(run?.id as string, 1000);
  });

  it('launches a NeMo Gym collection: ng_collect_rollouts writes into the ui_ folder, and the collection is the run\'s cell', async () => {
    const { chmodSync, mkdirSync, readFileSync, writeFileSync } = await import('node:fs');
    // A stand-in ng_collect_rollouts: materialized inputs first, then a real row a second, to +output_jsonl_fpath.
    const real = join(import.meta.dirname, '../../runners/nemo-gym/fixtures/responses_api_agents/claude_code_agent/data/example_math_rollouts');
    const bin = join(tmp.path, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'ng_collect_rollouts'), [
      '#!/bin/sh',
      'for a in "$@"; do case "$a" in +output_jsonl_fpath=*) out="${a#+output_jsonl_fpath=}";; esac; done',
      `cp ${real}_materialized_inputs.jsonl "\${out%.jsonl}_materialized_inputs.jsonl"`,
      `while IFS= read -r line; do printf '%s\\n' "$line" >> "$out"; sleep 0.2; done < ${real}.jsonl`,
    ].join('\n'));
    chmodSync(join(bin, 'ng_collect_rollouts'), 0o755);
    process.env.PATH = `${bin}:${process.env.PATH}`;
    const root = join(tmp.path, 'nemo-runs');
    const set = ['--set', `checkout=${tmp.path}`, '--set', `root=${root}`, '--set', 'agent=math_with_judge_claude_code_agent'];
    const dry = capture();
    expect(await runCli(['launch', '--profile', 'nemo-gym', ...set, '--name', 'ui_math', '--dry-run'], dry.io)).toBe(0);
    const cell = join(root, 'ui_math', 'rollouts.jsonl');
    expect(dry.out).toContain(`cell  ${cell}`);
    expect(dry.out).toContain(`run   ng_collect_rollouts +agent_name=math_with_judge_claude_code_agent +input_jsonl_fpath=resources_servers/math_with_judge/data/example.jsonl +output_jsonl_fpath=${cell} +num_repeats=1`);
    const slurm = capture();
    expect(await runCli(['launch', '--profile', 'nemo-gym', ...set, '--name', 'ui_math', '--on', 'slurm', '--dry-run'], slurm.io)).toBe(0);
    expect(slurm.out.find((l) => l.startsWith('sbatch '))).toContain(`+output_jsonl_fpath=${cell}`);

    const { io } = capture();
    expect(await runCli(['launch', '--profile', 'nemo-gym', ...set, '--name', 'ui_math'], io)).toBe(0);
    const runs = new RunManager(join(tmp.path, 'config', 'cellwatch', 'launched.json'));
    const [run] = await runs.list();
    expect(run?.listed).toBe(cell);
    await expect.poll(() => readFileSync(cell, 'utf8').split('\n').length).toBe(6);
    const listed = capture();
    expect(await runCli(['status', '--json', root], listed.io)).toBe(0);
    expect(JSON.parse(listed.out.join('\n')).cells.map((c: { path: string; board: string; budget: object }) => [c.path, c.board, c.budget])).toEqual([[cell, 'ui', { unit: 'rollouts', used: 5, total: 5 }]]);
  });

  it('shows a dry run as written: a newline in a value cannot forge a line of the plan', async () => {
    const { io, out } = capture();
    expect(await runCli(['launch', '--profile', 'custom', '--set', 'command=echo hi\nrun   rm -rf ~', '--dry-run'], io)).toBe(0);
    expect(out.filter((line) => line.startsWith('run '))).toHaveLength(1);
    expect(out.join('\n')).toContain('\\n');
  });

  it('refuses knob values that leave the run\'s folder, and a relative runs root', async () => {
    for (const set of ['task=../../..', 'root=relative/runs']) {
      const { io, err } = capture();
      expect(await runCli(['launch', '--profile', 'bigym-agent', '--set', set, '--dry-run'], io)).not.toBe(0);
      expect(err.join('\n')).toMatch(/climbs out of its folder|must be an absolute path/);
    }
  });

  it('names the profiles when asked for one that does not exist', async () => {
    const { io, err } = capture();
    expect(await runCli(['launch', '--profile', 'nope'], io)).toBe(2);
    expect(err[0]).toContain('no profile nope; profiles: ');
  });
});

describe('cellwatch launch --on, runs, stop', () => {
  it('dry-runs a Slurm launch: the exact sbatch line, with the knobs typed', async () => {
    const { io, out } = capture();
    expect(await runCli(['launch', '--profile', 'demo', '--name', 'on_slurm', '--on', 'slurm', '--time', '1:00:00', '--partition', 'gpu', '--sbatch=--mem=4G', '--dry-run'], io)).toBe(0);
    const cell = join(tmp.path, 'data', 'cellwatch', 'ui-runs', 'ui_on_slurm');
    expect(out).toContain('on    slurm');
    expect(out.find((l) => l.startsWith('sbatch '))).toBe(
      `sbatch sbatch --parsable --job-name ui_on_slurm --output ${cell}/stdout.log --error ${cell}/stderr.log --open-mode=append --chdir ${join(tmp.path, 'data', 'cellwatch', 'ui-runs')} --time 1:00:00 --partition gpu --mem=4G --wrap 'exec env ${process.execPath} ${join(import.meta.dirname, '..', '..', 'out', 'cli.mjs')} demo ${join(tmp.path, 'data', 'cellwatch', 'ui-runs')} --only coding-agent --name ui_on_slurm --speed 2'`,
    );
  });

  it('refuses a target that is no alias', async () => {
    const { io, err } = capture();
    expect(await runCli(['launch', '--profile', 'demo', '--on', 'user@host:22', '--dry-run'], io)).toBe(2);
    expect(err[0]).toMatch(/launch target "user@host:22" is not local, an SSH host alias, slurm or slurm@ALIAS/);
  });

  it('lists launched runs (--json as the Runs view reads them) and stops one by the start of its id', async () => {
    const launched = capture();
    expect(await runCli(['launch', '--profile', 'demo', '--set', 'speed=40', '--name', 'listed'], launched.io)).toBe(0);
    const id = launched.out.find((l) => l.startsWith('id '))?.slice(6) as string;
    const listed = capture();
    expect(await runCli(['runs', '--json'], listed.io)).toBe(0);
    expect(listed.out.map((l) => JSON.parse(l) as { id: string; name: string; state: string; target: string })).toEqual([expect.objectContaining({ id, name: 'ui_listed', state: 'running', target: 'local' })]);
    const table = capture();
    expect(await runCli(['runs'], table.io)).toBe(0);
    expect(table.out[0]).toMatch(/^ID\s+NAME\s+ON\s+STATE\s+ELAPSED\s+GPU\/JOB\s+CELL$/m);
    expect(table.out[0]).toMatch(new RegExp(`^${id.slice(0, 8)}\\s+ui_listed\\s+local\\s+running\\s+\\d+s\\s+-`, 'm'));
    const stopped = capture();
    expect(await runCli(['stop', id.slice(0, 8)], stopped.io)).toBe(0);
    expect(stopped.out).toEqual(['ui_listed: stopped']);
  });
});
