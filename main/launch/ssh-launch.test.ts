import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSPECT_LOG_NAME, inspectStandIn, restoreEnv, tempDir, writeTree } from '../../runners/testing';
import { createCore, type Core } from '../core';
import { shellNvidiaSmi } from '../gpu/fake/shell';
import { startSshd, type TestSshd } from '../ssh/testing';

/** Processes of a process group that are not zombies (this machine's init may leave orphans' zombies). */
function liveGroup(pgid: number): number[] {
  return execFileSync('ps', ['-eo', 'pid=,pgid=,stat='], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter(([, g, stat]) => Number(g) === pgid && !stat?.startsWith('Z'))
    .map(([p]) => Number(p));
}

let sshd: TestSshd;
let tmp: ReturnType<typeof tempDir>;
let core: Core;
const saved = { ...process.env };
const open = () => createCore({ configDir: join(tmp.path, 'config'), dataDir: join(tmp.path, 'data'), transport: 'serve', nvidiaSmi: false, remoteNvidiaSmi: join(tmp.path, 'nvidia-smi') });

beforeAll(async () => {
  tmp = tempDir();
  // The host's HOME, where its runs go: a folder of this test's, not the real home of the user it logs in as.
  // Its PATH holds a stand-in `inspect` (runners/testing.ts).
  inspectStandIn(join(tmp.path, 'host-bin'));
  sshd = await startSshd({ trusted: true, env: { HOME: join(tmp.path, 'host-home'), PATH: `${join(tmp.path, 'host-bin')}:${process.env.PATH}` } });
  process.env.HOME = sshd.home;
  // The host's GPU: a real H200 capture, 110796 MiB free.
  shellNvidiaSmi(tmp.path, join(import.meta.dirname, '..', 'gpu', 'fixtures', 'noheader-nounits', 'linux-x86_64__nvidia-h200__590.48.01__load.csv'));
  // A profile that needs a GPU; its script makes its folder a cell first, so the launch finds it listed at once.
  const trainer = {
    name: 'trainer', format: 'coding-agent', gpu: true, drain: 'sentinel', resume_knob: 'episodes', knobs: [{ key: 'script', label: 'Script' }, { key: 'episodes', label: 'Episodes' }], run_name: 'ui_trainer_{stamp}',
    command: ['sh', '-c', `echo '{"runner": "coding-agent"}' > run.json; echo episodes=[{episodes}]; {script}`], cwd: '{dataDir}/ui-runs/{name}', cell: '{dataDir}/ui-runs/{name}',
  };
  writeTree(join(tmp.path, 'config', 'profiles'), { 'trainer.yaml': JSON.stringify(trainer) });
  core = await open();
});
afterAll(async () => {
  await core?.close();
  restoreEnv(saved);
  await sshd?.stop();
  tmp?.remove();
});

const runOf = async (id: string) => (await core.listRuns()).find((r) => r.id === id);

describe('launching on an SSH host', () => {
  it("picks the host's GPU from its own nvidia-smi, and renders paths in the host's home", async () => {
    const plan = await core.planLaunch({ profile: 'trainer', values: { script: 'true' }, target: 'testhost', label: 'gpu' });
    expect(plan.gpu).toBe(0);
    expect(plan.env.CUDA_VISIBLE_DEVICES).toBe('0');
    // The sshd's user is this machine's; its home is the one the host's $HOME says.
    expect(plan.cell).toBe(join(tmp.path, 'host-home', '.local', 'share', 'cellwatch', 'ui-runs', 'ui_trainer_gpu'));
    const below = await core.planLaunch({ profile: 'trainer', values: { script: 'true' }, target: 'testhost', minFreeMib: 200_000 });
    expect(below.refused).toMatch(/GPU 0 has 110796 MiB free, below the 200000 MiB minimum/);
  });

  it('starts the demo detached in its own session: it outlives the connection, is found after a restart, and Stop ends its whole group', async () => {
    const root = join(tmp.path, 'remote-runs');
    const { run, cellId } = await core.launchRun({ profile: 'demo', values: { speed: '20', root }, target: 'testhost', label: 'ssh' });
    expect(run).toMatchObject({ target: 'testhost', host: 'testhost', state: 'running', job: null });
    const pid = run.pid as number;
    // Its pid and start time in its cell, beside its output.
    expect(readFileSync(join(run.cell, 'launch.pid'), 'utf8')).toMatch(new RegExp(`^${pid} \\d+\\n$`));
    expect(execFileSync('ps', ['-o', 'sid=', '-p', String(pid)], { encoding: 'utf8' }).trim()).toBe(String(pid));
    expect(cellId).toBe(`testhost:${run.cell}`);
    await expect.poll(async () => (await core.listCells()).find((c) => c.id === cellId)?.state).toBe('running');

    // The connection drops (as a network would): the run goes on, and is still running once reconnected.
    let dropped = false;
    core.events.on('hostsChanged', (hosts: { alias: string; state: string }[]) => (dropped ||= hosts.find((h) => h.alias === 'testhost')?.state !== 'connected'));
    sshd.cutSessions();
    // Reconnected at once: the drop is seen as it happens, not by asking later.
    await expect.poll(() => dropped).toBe(true);
    expect(liveGroup(pid).length).toBeGreaterThan(0);
    await expect.poll(async () => (await core.listHosts()).find((h) => h.alias === 'testhost')?.state).toBe('connected');
    expect((await runOf(run.id))?.state).toBe('running');

    // The app restarts: the run is found again, over a new connection, and is still stoppable.
    await core.close();
    core = await open();
    await expect.poll(async () => (await runOf(run.id))?.state).toBe('running');
    expect((await core.stopRun(run.id)).state).toBe('stopped');
    expect(liveGroup(pid)).toEqual([]);
    await expect.poll(async () => (await core.listCells()).find((c) => c.id === cellId)?.state).toBe('stopped');
  }, 90_000);

  it('writes nothing through a link the run planted in its cell: DRAIN, its exit code; launches into no cell that exists, and a resume goes on in its own', async () => {
    const victims = ['drain-victim', 'exit-victim'].map((name) => join(tmp.path, name));
    victims.forEach((file) => writeFileSync(file, 'precious'));
    // The run plants its links, then waits for the drain's signal.
    const script = `ln -s ${victims[0]} DRAIN; ln -s ${victims[1]} launch.exit; trap 'echo drained; exit 0' USR1; while true; do sleep 0.1; done`;
    const { run } = await core.launchRun({ profile: 'trainer', values: { script }, target: 'testhost', label: 'planted' });
    await expect.poll(() => existsSync(join(run.cell, 'launch.exit'))).toBe(true);
    expect(await core.drainRun(run.id)).toEqual(['drained']);
    await expect.poll(async () => (await runOf(run.id))?.state).toBe('exited');
    victims.forEach((file) => expect(readFileSync(file, 'utf8')).toBe('precious'));
    await expect(core.launchRun({ profile: 'trainer', values: { script: 'true' }, target: 'testhost', label: 'planted' })).rejects.toThrow(`${run.cell} exists already`);

    // Resumed: the same name into the same cell over the host's connection, its stdout appended to; the planted exit link goes, its target stays.
    const resumed = (await core.resumeRun(run.id, 'resume: --episodes 3')).run;
    expect(resumed).toMatchObject({ name: run.name, cell: run.cell, target: 'testhost', state: 'running' });
    await expect.poll(() => readFileSync(join(run.cell, 'stdout.log'), 'utf8')).toBe('episodes=[]\ndrained\nepisodes=[3]\n');
    expect((await core.stopRun(resumed.id)).state).toBe('stopped');
    victims.forEach((file) => expect(readFileSync(file, 'utf8')).toBe('precious'));

    // A file moved into its log's place (one name, another inode than the launch recorded) is not appended to.
    const moved = join(tmp.path, 'moved.txt');
    writeFileSync(moved, 'moved\n');
    renameSync(moved, join(run.cell, 'stdout.log'));
    await expect(core.resumeRun(resumed.id, 'resume: --episodes 4')).rejects.toThrow(`${join(run.cell, 'stdout.log')} is not the file the launch made`);
    expect(readFileSync(join(run.cell, 'stdout.log'), 'utf8')).toBe('moved\n');
  });

  it('runs `inspect eval` on the host: the log Inspect names itself in the run\'s ui_ folder there is the run\'s cell', async () => {
    const root = join(tmp.path, 'host-home', 'inspect-runs');
    writeTree(root, { 'popularity.py': '' });
    const { run, cellId } = await core.launchRun({ profile: 'inspect', values: { root, checkout: root, task: 'popularity.py', model: 'mockllm/model' }, target: 'testhost', label: 'ssh' });
    const id = `testhost:${run.cell}/${INSPECT_LOG_NAME}`;
    expect([cellId, run.cellId]).toEqual([id, id]);
    expect((await core.listCells()).find((c) => c.id === id)).toMatchObject({ format: 'inspect', board: 'ui', budget: { used: 4, total: 4 } });
    expect((await core.stopRun(run.id)).state).toBe('stopped');
  });

  it('shows a run that exits non-zero as crashed, with its exit code and the end of its stderr', async () => {
    const { run } = await core.launchRun({ profile: 'trainer', values: { script: 'echo "CUDA out of memory" >&2; exit 4' }, target: 'testhost' });
    await expect.poll(async () => (await runOf(run.id))?.state).toBe('crashed');
    expect(await runOf(run.id)).toMatchObject({ exitCode: 4, gpu: 0, stderrTail: ['CUDA out of memory'] });
  });

  it('refuses to signal a pid that now belongs to another process', async () => {
    const { run } = await core.launchRun({ profile: 'trainer', values: { script: 'sleep 60' }, target: 'testhost' });
    const registry = join(tmp.path, 'config', 'launched.json');
    await core.close();
    const runs = JSON.parse(readFileSync(registry, 'utf8')) as { id: string; pidStart: string }[];
    writeFileSync(registry, JSON.stringify(runs.map((r) => (r.id === run.id ? { ...r, pidStart: '1' } : r))));
    core = await open();
    await expect.poll(async () => (await runOf(run.id))?.state).toBe('ended');
    await core.stopRun(run.id);
    expect(liveGroup(run.pid as number).length).toBeGreaterThan(0);
    process.kill(-(run.pid as number), 'SIGKILL');
    expect(existsSync(join(run.cell, 'launch.pid'))).toBe(true);
  });
});
