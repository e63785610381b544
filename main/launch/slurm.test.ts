import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../runners/testing';
import { createCore, type Core } from '../core';
import { startSshd, type TestSshd } from '../ssh/testing';
import { parseSacct, parseScontrol, parseSqueue, runStateOfJob, sbatchLine, splitWords } from './slurm';
import { startSlurm, type TestSlurm } from './slurm-testing';
import { LaunchService } from './service';

describe("Slurm's lines and answers", () => {
  it('submits the exact sbatch line: the job named after the run, output to its cell, the command exec\'d in --wrap', () => {
    const job = { name: 'ui_demo_x', cell: '/r/ui_demo_x', cwd: '/r', command: ['node', '/opt/cli.mjs', 'demo', 'a b'], env: { CUDA_VISIBLE_DEVICES: '1' } };
    expect(sbatchLine(job, { time: '2:00:00', partition: 'gpu', extra: "--mem=8G --comment 'my try'" }, true)).toEqual([
      'sbatch', '--parsable', '--job-name', 'ui_demo_x', '--output', '/r/ui_demo_x/stdout.log', '--error', '/r/ui_demo_x/stderr.log', '--open-mode=append',
      '--chdir', '/r', '--gres=gpu:1', '--time', '2:00:00', '--partition', 'gpu', '--mem=8G', '--comment', 'my try',
      '--wrap', "exec env CUDA_VISIBLE_DEVICES=1 node /opt/cli.mjs demo 'a b'",
    ]);
    expect(sbatchLine(job, { gpus: 0 }, true)).not.toContain('--gres=gpu:1');
    expect(sbatchLine(job, {}, false).some((a) => a.startsWith('--gres'))).toBe(false);
    expect(() => sbatchLine(job, { extra: '--wrap "rm -rf ~"' }, false)).toThrow(/--wrap is Cellwatch's own/);
    expect(() => splitWords("--comment 'open")).toThrow(/unclosed '/);
  });

  const plain = { name: 'ui_x', cell: '/r/ui_x', cwd: '/r', command: ['true'], env: {} };
  it.each([
    ['--ou=/tmp/x', 'a prefix of --output'],
    ['--job-nam=other', 'a prefix of --job-name'],
    ['-He', 'bundled: -H (hold) then -e'],
    ['-Ho /tmp/x', 'bundled: -H then -o'],
    ['--chdir=/', 'the folder'],
    ['-D /', 'the folder, short'],
    ['--export=NONE', 'the environment'],
    ['--exp ALL', 'a prefix of --export'],
    ['--mem=8G -J other', 'after another option'],
  ])('refuses %s (%s): read as sbatch reads its arguments, it is Cellwatch\'s own', (extra) => {
    expect(() => sbatchLine(plain, { extra }, false)).toThrow(/is Cellwatch's own/);
  });

  it.each([
    ['--comment --output=x', 'the value of --comment'],
    ['-x node3', 'an option with its value'],
    ['-xo', "-x's value joined to it"],
    ['--mem 8G --nodelist=a,b -H', 'options and values'],
  ])('takes %s (%s)', (extra) => {
    expect(sbatchLine(plain, { extra }, false)).toEqual(expect.arrayContaining(splitWords(extra)));
  });

  it('refuses a word that is no option: sbatch would take it for the script', () => {
    expect(() => sbatchLine(plain, { extra: '--mem=8G other.sh' }, false)).toThrow('sbatch argument other.sh is not an option');
  });

  it('reads squeue, sacct and scontrol as they answer (captured from Slurm 22.05)', () => {
    expect(parseSqueue('2|PENDING|PartitionConfig|\n7|RUNNING|None|vm\n')).toEqual([
      { id: '2', state: 'PENDING', reason: 'PartitionConfig', node: null, exitCode: null },
      { id: '7', state: 'RUNNING', reason: null, node: 'vm', exitCode: null },
    ]);
    expect(parseSacct('12|CANCELLED by 0|0:15|vm\n13|FAILED|3:0|vm\n')).toMatchObject([{ id: '12', state: 'CANCELLED', exitCode: 0 }, { id: '13', state: 'FAILED', exitCode: 3 }]);
    const line =
      'JobId=1 JobName=ui_t1 UserId=root(0) GroupId=root(0) MCS_label=N/A Priority=4294901759 Nice=0 Account=(null) QOS=(null) JobState=FAILED Reason=NonZeroExitCode Dependency=(null) Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=3:0 RunTime=00:00:00 TimeLimit=UNLIMITED NodeList=vm BatchHost=vm NumNodes=1';
    expect(parseScontrol(line)).toEqual([{ id: '1', state: 'FAILED', reason: null, node: 'vm', exitCode: 3 }]);
    expect(['PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'TIMEOUT', 'OUT_OF_MEMORY'].map(runStateOfJob)).toEqual(['pending', 'running', 'exited', 'crashed', 'stopped', 'crashed', 'crashed']);
  });
});

describe('launching on a one-node Slurm cluster', () => {
  let slurm: TestSlurm;
  let tmp: ReturnType<typeof tempDir>;
  let core: Core;

  beforeAll(async () => {
    slurm = await startSlurm();
    process.env.SLURM_CONF = slurm.conf;
    tmp = tempDir();
    // A script that makes its folder a cell first, so the launch finds it listed at once.
    const script = {
      name: 'script', format: 'coding-agent', gpu: false, drain: 'sentinel', knobs: [{ key: 'script', label: 'Script' }], run_name: 'ui_script_{stamp}',
      command: ['sh', '-c', `echo '{"runner": "coding-agent"}' > run.json; {script}`], cwd: '{dataDir}/ui-runs/{name}', cell: '{dataDir}/ui-runs/{name}',
    };
    writeTree(join(tmp.path, 'config', 'profiles'), { 'script.yaml': JSON.stringify(script) });
    core = await createCore({ configDir: join(tmp.path, 'config'), dataDir: join(tmp.path, 'data'), transport: 'serve', nvidiaSmi: false });
  });
  afterAll(async () => {
    await core?.close();
    delete process.env.SLURM_CONF;
    await slurm?.stop();
    tmp?.remove();
  });

  const queue = () => slurm.run('squeue', ['-h', '-o', '%i %j %T']);
  /** A launch service of its own on the core's registry, as the app's next start makes one. */
  const serviceOptions = () => ({
    configDir: join(tmp.path, 'config'), packageRoot: join(import.meta.dirname, '..', '..'), dataDir: join(tmp.path, 'data'),
    gpus: async () => [], shell: () => Promise.reject(new Error('no hosts here')), watchCell: async () => null, cellListedAs: () => null,
  });
  const runOf = async (id: string) => (await core.listRuns()).find((r) => r.id === id);

  it('submits the demo under its ui_ name: its cell appears and goes live; Stop cancels the job', async () => {
    const plan = await core.planLaunch({ profile: 'demo', values: { speed: '20' }, target: 'slurm', label: 'slurm' });
    expect(plan.submit?.slice(0, 4)).toEqual(['sbatch', '--parsable', '--job-name', 'ui_demo_coding-agent_slurm']);
    const { run, cellId } = await core.launchRun({ profile: 'demo', values: { speed: '20' }, target: 'slurm', label: 'slurm' });
    expect(run).toMatchObject({ target: 'slurm', host: 'local', pid: null, job: { id: expect.stringMatching(/^\d+$/) } });
    expect(queue()).toContain(`${run.job?.id} ui_demo_coding-agent_slurm`);
    expect(cellId).toBe(`local:${run.cell}`);
    await expect.poll(async () => (await core.listCells()).find((c) => c.id === cellId)?.state).toBe('running');
    await expect.poll(async () => (await runOf(run.id))?.job?.state).toBe('RUNNING');
    expect((await runOf(run.id))?.job?.node).toBeTruthy();

    const stopped = await core.stopRun(run.id);
    expect(queue()).not.toContain(run.job?.id as string);
    expect(stopped).toMatchObject({ state: 'stopped', job: { state: 'CANCELLED' } });
    // The cell says so too: never running after Stop.
    await expect.poll(async () => (await core.listCells()).find((c) => c.id === cellId)?.state).toBe('stopped');
  });

  it('shows a job that fails as FAILED with its exit code and the end of its stderr', async () => {
    const { run } = await core.launchRun({ profile: 'script', values: { script: 'echo starting; echo "no such checkpoint" >&2; exit 3' }, target: 'slurm' });
    await expect.poll(async () => (await runOf(run.id))?.state).toBe('crashed');
    expect(await runOf(run.id)).toMatchObject({ exitCode: 3, job: { state: 'FAILED', exitCode: 3 }, stderrTail: ['no such checkpoint'] });
    await expect.poll(async () => (await core.listAlerts()).alerts.find((a) => a.subject === run.name)?.message).toBe(
      `Slurm job ${run.job?.id} FAILED, exited with code 3: no such checkpoint`,
    );
  });

  it('shows a job that cannot start yet as PENDING with its reason; its launch stops waiting for its cell', async () => {
    // As the window's launch waits for a cell: while the run is starting, not while Slurm holds it in its queue.
    const launcher = await LaunchService.create({
      ...serviceOptions(),
      watchCell: async (_address, _listed, starting) => {
        await expect.poll(starting).toBe(false);
        return null;
      },
    });
    try {
      const launched = await launcher.launchRun({ profile: 'script', values: { script: 'sleep 60' }, target: 'slurm', slurm: { extra: '--cpus-per-task=64' } });
      expect(launched).toMatchObject({ cellId: null, problem: null, run: { state: 'pending', job: { state: 'PENDING', reason: expect.any(String) } } });
      expect((await launcher.stopRun(launched.run.id)).job?.state).toBe('CANCELLED');
    } finally {
      launcher.close();
    }
  });

  it('drains a job: DRAIN in its cell, SIGUSR1 to its batch step, and what it printed', async () => {
    const script = 'trap \'echo "resume: --episodes 4,5"; exit 0\' USR1; echo started; while true; do sleep 0.1; done';
    const { run } = await core.launchRun({ profile: 'script', values: { script }, target: 'slurm' });
    await expect.poll(() => existsSync(join(run.cell, 'stdout.log')) && readFileSync(join(run.cell, 'stdout.log'), 'utf8')).toContain('started');
    expect(await core.drainRun(run.id)).toEqual(['resume: --episodes 4,5']);
    expect(existsSync(join(run.cell, 'DRAIN'))).toBe(true);
    await expect.poll(async () => (await runOf(run.id))?.job?.state).toBe('COMPLETED');
  });

  it('finds its jobs again after a restart, and stops them', async () => {
    const { run } = await core.launchRun({ profile: 'script', values: { script: 'sleep 120' }, target: 'slurm' });
    const again = await LaunchService.create(serviceOptions(), false);
    await expect.poll(async () => (await again.listRuns()).find((r) => r.id === run.id)?.job?.state).toBe('RUNNING');
    expect((await again.stopRun(run.id)).state).toBe('stopped');
    again.close();
  });
});

describe('Slurm through an SSH host (slurm@ALIAS)', () => {
  let slurm: TestSlurm;
  let sshd: TestSshd;
  let tmp: ReturnType<typeof tempDir>;
  let core: Core;
  const saved = { ...process.env };

  beforeAll(async () => {
    slurm = await startSlurm();
    tmp = tempDir();
    // The login node's own environment knows its cluster; this machine's does not. Its HOME, where the runs go, is the test's.
    sshd = await startSshd({ env: { SLURM_CONF: slurm.conf, HOME: join(tmp.path, 'host-home') }, trusted: true });
    process.env.HOME = sshd.home;
    core = await createCore({ configDir: join(tmp.path, 'config'), dataDir: join(tmp.path, 'data'), transport: 'serve', nvidiaSmi: false, remoteNvidiaSmi: 'false' });
  });
  afterAll(async () => {
    await core?.close();
    process.env.HOME = saved.HOME;
    await sshd?.stop();
    await slurm?.stop();
    tmp?.remove();
  });

  it("submits over the host's connection, watches the cell there, and cancels", async () => {
    const { run, cellId } = await core.launchRun({ profile: 'demo', values: { speed: '20' }, target: 'slurm@testhost', label: 'remote' });
    expect(run).toMatchObject({ target: 'slurm@testhost', host: 'testhost', job: { id: expect.stringMatching(/^\d+$/) } });
    expect(slurm.run('squeue', ['-h', '-o', '%j'])).toContain(run.name);
    expect(cellId).toBe(`testhost:${run.cell}`);
    await expect.poll(async () => (await core.listRuns()).find((r) => r.id === run.id)?.job?.state).toBe('RUNNING');
    expect((await core.stopRun(run.id)).job?.state).toBe('CANCELLED');
    expect(execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' })).not.toContain(run.name);
  });
});
