import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../runners/testing';
import { uiName } from '../../shared/launch';
import { loadProfiles, renderRun, type Profile } from './profiles';
import { RunManager } from './runs';

const SHIPPED = join(import.meta.dirname, '..', '..', 'runners', 'profiles');
let tmp: ReturnType<typeof tempDir>;
let manager: RunManager;
let custom: Profile;
const ctx = () => ({ dataDir: join(tmp.path, 'data'), node: process.execPath, cli: '/opt/cellwatch/out/cli.mjs', now: new Date('2026-11-29T10:00:00Z') });

/** Every pid in a process group, by ps. */
function group(pgid: number): number[] {
  // Zombies aside: a dead child waits for an init to reap it, which may be slow to.
  const out = execFileSync('ps', ['-eo', 'pid=,pgid=,stat='], { encoding: 'utf8' });
  return out.split('\n').map((l) => l.trim().split(/\s+/)).filter(([, g, stat]) => Number(g) === pgid && !stat?.startsWith('Z')).map(([p]) => Number(p));
}

/** The managers of a test (the app's, a second Cellwatch's), each closed before its folder goes. */
let managers: RunManager[] = [];
/** A manager of the registry at `path`: the test's own, or another Cellwatch's on the same config folder. */
const managerAt = (path: string) => {
  const made = new RunManager(path);
  managers.push(made);
  return made;
};

beforeEach(async () => {
  tmp = tempDir();
  manager = managerAt(join(tmp.path, 'config', 'launched.json'));
  custom = (await loadProfiles([SHIPPED])).profiles.find((p) => p.name === 'custom') as Profile;
});
// A run stopped by a test may be heard exiting after it, and that exit saved: into a folder gone by then,
// which the save made again.
afterEach(async () => {
  await Promise.all(managers.map((m) => m.close()));
  managers = [];
  tmp.remove();
});

const start = (run: ReturnType<typeof renderRun>) => ({ run, env: {}, submit: null });
const launch = (command: string) => manager.launch('local', start(renderRun(custom, { command, root: join(tmp.path, 'runs') }, ctx())), null, { canDrain: true });

describe('runner profiles', () => {
  it('ships demo, coding-agent, bigym-agent, evopolicygym, nemo-gym, inspect and custom, all valid', async () => {
    const { profiles, problems } = await loadProfiles([SHIPPED]);
    expect(problems).toEqual([]);
    expect(profiles.map((p) => p.name).sort()).toEqual(['bigym-agent', 'coding-agent', 'custom', 'demo', 'evopolicygym', 'inspect', 'nemo-gym']);
  });

  it('renders the exact coding-agent command, with a ui_ name the board can never take', async () => {
    const { profiles } = await loadProfiles([SHIPPED]);
    const run = renderRun(profiles.find((p) => p.name === 'coding-agent') as Profile, { repo: '/src/ca', model: 'fable-5', condition: 'nav' }, ctx());
    expect(run.name).toBe('ui_sdk_fable-5_nav_default_20261129-100000');
    expect(run.command).toEqual(['python', 'coding-agent/stdrun.py', 'run', run.name, '--nonstd']);
    expect(run.cwd).toBe('/src/ca');
    expect(run.cell).toBe(`/src/ca/runs/${run.name}`);
  });

  it('a label takes the time stamp\'s place, keeping the rest of the name; {cell} and {name} in a knob are the run\'s own', async () => {
    const { profiles } = await loadProfiles([SHIPPED]);
    const coding = profiles.find((p) => p.name === 'coding-agent') as Profile;
    expect(renderRun(coding, { repo: '/src/ca', condition: 'nav' }, ctx(), undefined, 'ui_trial run').name).toBe('ui_sdk_fable-5_nav_default_trial-run');
    const run = renderRun(custom, { command: 'train --out {cell}/model --tag {name} && awk \'{print $1}\' log', root: '/r' }, ctx(), undefined, 'mine');
    expect(run.command).toEqual(['sh', '-c', "train --out /r/ui_custom_mine/model --tag ui_custom_mine && awk '{print $1}' log"]);
  });

  it('adds --command only for a custom bigym harness', async () => {
    const bigym = (await loadProfiles([SHIPPED])).profiles.find((p) => p.name === 'bigym-agent') as Profile;
    expect(renderRun(bigym, { checkout: '/b' }, ctx()).command).not.toContain('--command');
    const run = renderRun(bigym, { checkout: '/b', harness: 'custom', custom_command: 'my-harness --prompt PROMPT.md' }, ctx());
    expect(run.command.slice(-2)).toEqual(['--command', 'my-harness --prompt PROMPT.md']);
  });

  it('keeps the ui_ prefix whatever name is typed, and refuses unknown knobs and values off the list', async () => {
    expect(uiName('std_sdk_x')).toBe('ui_std_sdk_x');
    expect(uiName('ui_mine')).toBe('ui_mine');
    expect(uiName('uimine with spaces/and/slashes')).toBe('ui_mine-with-spaces-and-slashes');
    expect(() => renderRun(custom, { colour: 'red' }, ctx())).toThrow(/has no knob colour/);
    expect(() => renderRun(custom, { format: 'spreadsheet' }, ctx())).toThrow(/format must be one of/);
  });

  it('reports a broken user profile by file and keeps the rest', async () => {
    const dir = join(tmp.path, 'profiles');
    const { writeTree } = await import('../../runners/testing');
    writeTree(dir, { 'bad.yaml': 'name: bad\ncommand: nope\n' });
    const { profiles, problems } = await loadProfiles([SHIPPED, dir]);
    expect(profiles).toHaveLength(7);
    expect(problems[0]?.file).toBe(join(dir, 'bad.yaml'));
  });
});

describe('launched processes', () => {
  it('stops a whole tree of child processes: nothing outlives the group', async () => {
    const run = await launch('sleep 300 & sleep 300 & (sleep 300 & sleep 300 & wait) & wait');
    await expect.poll(() => group(run.pid as number).length).toBeGreaterThanOrEqual(5);
    const stopped = await manager.stop(run.id, 2000);
    expect(stopped.state).toBe('stopped');
    expect(group(run.pid as number)).toEqual([]);
  });

  it('kills a group that ignores SIGTERM once the grace period ends', async () => {
    const run = await launch("trap '' TERM; sleep 300 & trap '' TERM; wait");
    await expect.poll(() => group(run.pid as number).length).toBeGreaterThanOrEqual(2);
    const started = Date.now();
    await manager.stop(run.id, 500);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    expect(Date.now() - started).toBeLessThan(2500);
    expect(group(run.pid as number)).toEqual([]);
  });

  it('lets a run that cleans up on SIGTERM finish within the grace period: no SIGKILL before it ends', async () => {
    const cleaned = join(tmp.path, 'cleaned');
    const run = await launch(`trap 'sleep 1; echo done > ${cleaned}; exit 0' TERM; sleep 300 & wait`);
    await expect.poll(() => group(run.pid as number).length).toBeGreaterThanOrEqual(2);
    const started = Date.now();
    const stopped = await manager.stop(run.id, 10_000);
    // It ended when its cleanup did, well before the grace period ran out.
    expect(Date.now() - started).toBeLessThan(7000);
    expect(readFileSync(cleaned, 'utf8')).toBe('done\n');
    expect(stopped.state).toBe('stopped');
    expect(group(run.pid as number)).toEqual([]);
  });

  it('drains: DRAIN in the cell, SIGUSR1 to the group, and the resume spec it prints', async () => {
    const run = await launch("trap 'echo \"resume: --episodes 7,8\"; exit 0' USR1; echo started; while true; do sleep 0.1; done");
    await expect.poll(() => existsSync(join(run.cell, 'stdout.log')) && readFileSync(join(run.cell, 'stdout.log'), 'utf8')).toContain('started');
    expect(await manager.drain(run.id, 800)).toEqual(['resume: --episodes 7,8']);
    expect(existsSync(join(run.cell, 'DRAIN'))).toBe(true);
    await manager.stop(run.id, 500);
  });

  it('drains never through a link the run planted: DRAIN -> a file of the user\'s is refused, and the file keeps its text', async () => {
    const run = await launch('echo started; while true; do sleep 0.1; done');
    const victim = join(tmp.path, 'victim.txt');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, join(run.cell, 'DRAIN'));
    await expect(manager.drain(run.id, 100)).rejects.toThrow(`${join(run.cell, 'DRAIN')} is a link: not written; the run was not drained`);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    await manager.stop(run.id, 500);
  });

  it('never launches into a cell folder that exists: a relaunch under the same label is refused and writes nothing there', async () => {
    const rendered = renderRun(custom, { command: 'echo hello', root: join(tmp.path, 'runs') }, ctx(), 'again');
    mkdirSync(rendered.cell, { recursive: true });
    const victim = join(tmp.path, 'victim.txt');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, join(rendered.cell, 'stdout.log'));
    await expect(manager.launch('local', start(rendered), null, { canDrain: true })).rejects.toThrow(`${rendered.cell} exists already: a launch makes a new cell; choose another name or label`);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(await manager.list()).toEqual([]);
  });

  it('shows a run that exits non-zero as crashed, with its exit code and the end of its stderr', async () => {
    const run = await launch('for i in $(seq 1 60); do echo "line $i" >&2; done; exit 3');
    await expect.poll(async () => (await manager.list()).find((r) => r.name === run.name)?.state).toBe('crashed');
    const view = (await manager.list()).find((r) => r.name === run.name)!;
    expect(view.exit?.code).toBe(3);
    expect(view.stderrTail).toHaveLength(50);
    expect(view.stderrTail.at(-1)).toBe('line 60');
  });

  it('saves its registry one write at a time: runs that exit at once leave it whole', async () => {
    const runs = await Promise.all(Array.from({ length: 8 }, (_, i) => manager.launch('local', start(renderRun(custom, { command: 'exit 0', root: join(tmp.path, 'runs') }, ctx(), `at-once-${i}`)), null, { canDrain: true })));
    await expect.poll(async () => (await manager.list()).filter((r) => r.state === 'exited').length).toBe(8);
    await new Promise((r) => setTimeout(r, 200));
    const saved = JSON.parse(readFileSync(join(tmp.path, 'config', 'launched.json'), 'utf8')) as { id: string }[];
    expect(saved.map((r) => r.id).sort()).toEqual(runs.map((r) => r.id).sort());
  });

  it('keeps the runs another Cellwatch on the same config folder launched: serve launches A, the CLI B, serve C; B can be stopped from serve', async () => {
    const cli = managerAt(join(tmp.path, 'config', 'launched.json'));
    const named = (label: string) => start(renderRun(custom, { command: 'sleep 300', root: join(tmp.path, 'runs') }, ctx(), label));
    const a = await manager.launch('local', named('a'), null, { canDrain: true });
    const b = await cli.launch('local', named('b'), null, { canDrain: true });
    const c = await manager.launch('local', named('c'), null, { canDrain: true });
    const saved = JSON.parse(readFileSync(join(tmp.path, 'config', 'launched.json'), 'utf8')) as { id: string }[];
    expect(saved.map((r) => r.id).sort()).toEqual([a.id, b.id, c.id].sort());
    expect((await manager.stop(b.id, 500)).state).toBe('stopped');
    for (const run of [a, c]) await manager.stop(run.id, 500);
  });

  it('stops the run it is asked to by id, when two runs share a name', async () => {
    const first = await manager.launch('local', start(renderRun(custom, { command: 'sleep 300', root: join(tmp.path, 'runs') }, ctx(), 'twin')), null, { canDrain: true }).catch((e: Error) => e);
    expect(first).not.toBeInstanceOf(Error);
    const a = first as Awaited<ReturnType<typeof manager.launch>>;
    await manager.stop(a.id, 500);
    // The same name in another root: a launch never goes into a cell folder that exists.
    const b = await manager.launch('local', start(renderRun(custom, { command: 'sleep 300', root: join(tmp.path, 'other-runs') }, ctx(), 'twin')), null, { canDrain: true });
    await manager.stop(a.id, 500);
    expect((await manager.list()).find((r) => r.id === b.id)?.state).toBe('running');
    await manager.stop(b.id, 500);
  });

  it('never signals a pid that now belongs to another process', async () => {
    const run = await launch('sleep 300');
    const registry = join(tmp.path, 'config', 'launched.json');
    const saved = JSON.parse(readFileSync(registry, 'utf8')) as { pidStart: string }[];
    // As after a reboot: the pid lives, but it started at another time than the run did.
    writeFileSync(registry, JSON.stringify(saved.map((r) => ({ ...r, pidStart: '1' }))));
    const again = managerAt(registry);
    const stopped = await again.stop(run.id, 200);
    expect(stopped.state).not.toBe('running');
    expect(group(run.pid as number).length).toBeGreaterThan(0);
    await manager.stop(run.id, 500);
  });

  it('finds a run left running at the next start, by pid', async () => {
    const run = await launch('sleep 300');
    const again = managerAt(join(tmp.path, 'config', 'launched.json'));
    expect((await again.list()).map((r) => [r.name, r.state])).toEqual([[run.name, 'running']]);
    await again.stop(run.id, 500);
  });
});
