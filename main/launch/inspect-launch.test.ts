import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INSPECT_LOG_NAME, inspectStandIn, restoreEnv, tempDir } from '../../runners/testing';
import { runCli } from '../cli/run';
import { capture } from '../cli/testing';
import { closedAfterEach } from '../testing';
import { RunManager } from './runs';

const saved = { ...process.env };
let tmp: ReturnType<typeof tempDir>;
let root: string;
beforeEach(() => {
  tmp = tempDir();
  root = join(tmp.path, 'inspect-runs');
  // The task file the launch checks for in its working folder.
  writeFileSync(join(tmp.path, 'popularity.py'), '');
  process.env.XDG_CONFIG_HOME = join(tmp.path, 'config');
  process.env.XDG_DATA_HOME = join(tmp.path, 'data');
});
afterEach(() => {
  restoreEnv(saved);
  tmp.remove();
});
const startCore = closedAfterEach();
const open = () => startCore({ configDir: join(tmp.path, 'config', 'cellwatch'), dataDir: join(tmp.path, 'data', 'cellwatch'), transport: 'serve', rescan: false, nvidiaSmi: false });
const values = () => ({ root, checkout: tmp.path, task: 'popularity.py', model: 'mockllm/model', epochs: '2' });
const sets = () => Object.entries(values()).flatMap(([key, value]) => ['--set', `${key}=${value}`]);

describe('the inspect launch profile', () => {
  it('dry-runs `inspect eval` into the run\'s ui_ folder, here and as an sbatch line', async () => {
    const set = sets();
    const cell = join(root, 'ui_inspect_mockllm-model_try');
    const here = capture();
    expect(await runCli(['launch', '--profile', 'inspect', ...set, '--name', 'ui_inspect_mockllm-model_try', '--dry-run'], here.io)).toBe(0);
    expect(here.out).toContain(`cell  ${cell}/*.eval`);
    expect(here.out).toContain(`run   inspect eval popularity.py --model mockllm/model --log-dir ${cell} --log-format eval --epochs=2`);
    const slurm = capture();
    expect(await runCli(['launch', '--profile', 'inspect', ...set, '--on', 'slurm', '--dry-run'], slurm.io)).toBe(0);
    expect(slurm.out.find((l) => l.startsWith('sbatch '))).toMatch(/inspect eval popularity\.py --model mockllm\/model --log-dir \S+\/ui_inspect_mockllm-model_\d{8}-\d{6} --log-format eval --epochs=2/);
  });

  it('takes the log Inspect names itself, once it appears in the ui_ folder, as the run\'s cell: off the board, its run\'s state beside it', async () => {
    const bin = join(tmp.path, 'bin');
    inspectStandIn(bin);
    process.env.PATH = `${bin}:${process.env.PATH}`;
    const core = await open();
    const launched = await core.launchRun({ profile: 'inspect', values: values(), label: 'here' });
    const id = `local:${launched.run.cell}/${INSPECT_LOG_NAME}`;
    expect(launched.cellId).toBe(id);
    expect(launched.run.cellId).toBe(id);
    const row = (await core.listCells()).find((c) => c.id === id);
    expect(row).toMatchObject({ format: 'inspect', board: 'ui', budget: { unit: 'samples', used: 4, total: 4 } });
    expect((await core.stopRun(launched.run.id)).cellId).toBe(id);
  });

  it('settles a run launched from the command line once its log appears: the app then names its cell', async () => {
    const go = join(tmp.path, 'go');
    const bin = join(tmp.path, 'bin');
    inspectStandIn(bin, go);
    process.env.PATH = `${bin}:${process.env.PATH}`;
    const { io } = capture();
    expect(await runCli(['launch', '--profile', 'inspect', ...sets(), '--name', 'ui_cli'], io)).toBe(0);
    const [run] = await new RunManager(join(tmp.path, 'config', 'cellwatch', 'launched.json')).list();
    // No log yet: the run lists its cell by the pattern only.
    expect(run?.listed).toBe(join(root, 'ui_cli', '*.eval'));
    const core = await open();
    await core.addRoot(root);
    expect((await core.listRuns())[0]?.cellId).toBe(`local:${root}/ui_cli/*.eval`);
    writeFileSync(go, '');
    const id = `local:${root}/ui_cli/${INSPECT_LOG_NAME}`;
    await expect.poll(async () => (await core.listRuns())[0]?.cellId).toBe(id);
    // Kept in the registry, for the CLI and the next start (the file is written as the app settles it).
    const saved = async () => (await new RunManager(join(tmp.path, 'config', 'cellwatch', 'launched.json')).list())[0]?.listed;
    await expect.poll(saved).toBe(join(root, 'ui_cli', INSPECT_LOG_NAME));
    await core.stopRun(run?.id as string);
  });
});
