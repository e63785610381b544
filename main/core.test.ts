import { homedir } from 'node:os';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CellsDelta, RootStatus } from '../shared/model';
import { closedAfterEach } from './testing';
import { tempDir, writeTree } from '../runners/testing';

let tmp: ReturnType<typeof tempDir>;
let configDir: string;
let runs: string;
beforeEach(() => {
  tmp = tempDir();
  configDir = join(tmp.path, 'config');
  runs = join(tmp.path, 'runs');
  writeTree(runs, { 'ui_a/run.json': { runner: 'coding-agent' }, 'nonstd_b/run.json': { runner: 'coding-agent' } });
});
afterEach(() => tmp.remove());
// Registered after the folder's removal, so it runs before it: after-hooks run in reverse order.
const startCore = closedAfterEach();

describe('core: runs roots', () => {
  it('saves added roots in the settings file and finds them at the next start', async () => {
    const core = await startCore({ configDir, transport: 'serve', rescan: false, nvidiaSmi: false });
    await core.scanned();
    expect(await core.listRoots()).toEqual([]);
    const added = await core.addRoot(runs);
    expect(added).toMatchObject({ path: runs, state: 'ok', cellCount: 2, source: 'settings' });
    expect(JSON.parse(readFileSync(join(configDir, 'settings.json'), 'utf8'))).toEqual({ roots: [runs] });

    const again = await startCore({ configDir, transport: 'serve', rescan: false, nvidiaSmi: false });

    await again.scanned();
    expect((await again.listCells()).map((c) => [c.name, c.board])).toEqual([
      ['nonstd_b', 'nonstd'],
      ['ui_a', 'ui'],
    ]);
  });

  it('keeps the roots two Cellwatches on one config folder each add, and a root it could not save is not listed', async () => {
    const other = join(tmp.path, 'other-runs');
    writeTree(other, { 'ui_c/run.json': { runner: 'coding-agent' } });
    const [serve, second] = await Promise.all([startCore({ configDir, transport: 'serve', rescan: false, nvidiaSmi: false }), startCore({ configDir, transport: 'serve', rescan: false, nvidiaSmi: false })]);
    await Promise.all([serve.addRoot(runs), second.addRoot(other)]);
    expect(JSON.parse(readFileSync(join(configDir, 'settings.json'), 'utf8')).roots.sort()).toEqual([other, runs].sort());
    await serve.removeRoot(runs);
    expect(JSON.parse(readFileSync(join(configDir, 'settings.json'), 'utf8')).roots).toEqual([other]);

    // A settings file that cannot be replaced (here a folder; a full disk likewise): the root is refused, not listed.
    const stuck = join(tmp.path, 'stuck-config');
    mkdirSync(join(stuck, 'settings.json'), { recursive: true });
    const core = await startCore({ configDir: stuck, transport: 'serve', rescan: false, nvidiaSmi: false });
    await expect(core.addRoot(runs)).rejects.toThrow(`could not read ${join(stuck, 'settings.json')}`);
    expect(await core.listRoots()).toEqual([]);
  });

  it('a copy of a run in another root takes both off the board, in the rows already sent too; removing that root puts the run back on', async () => {
    const std = (dir: string) =>
      writeTree(dir, {
        'run.json': { runner: 'coding-agent', run: 'std_sdk_m1_full_default', cell: { harness: 'sdk', model: 'm1', condition: 'full', effort: 'default' }, protocol: { name: 'std-v2', max_turns: 200, rgb_resolution: 512, max_actions: 500, timeout_s: 2400, episodes: [0] } },
        'summary.json': { run: 'std_sdk_m1_full_default', finished: true, planned: [0], episodes: { 0: { status: 'evaluated', success: true, engaged: true } } },
      });
    std(join(runs, 'std_sdk_m1_full_default'));
    const backup = join(tmp.path, 'backup');
    std(join(backup, 'std_sdk_m1_full_default'));
    const core = await startCore({ configDir, transport: 'serve', rescan: false, nvidiaSmi: false });
    await core.addRoot(runs);
    const real = join(runs, 'std_sdk_m1_full_default');
    const copy = join(backup, 'std_sdk_m1_full_default');
    const boardOf = async (path: string) => (await core.listCells()).find((c) => c.path === path);
    expect(await boardOf(real)).toMatchObject({ board: 'on', rivals: [] });

    const deltas: CellsDelta[] = [];
    core.events.on('cellsChanged', (delta) => deltas.push(delta));
    await core.addRoot(backup);
    for (const [self, other] of [[real, copy], [copy, real]] as const) {
      expect(await boardOf(self)).toMatchObject({ board: 'off', rivals: [other], board_reasons: [`another cell claims its board crossing: ${other}`] });
      expect((await boardOf(self))?.problems).toContainEqual(expect.objectContaining({ file: self, message: `another cell claims its board crossing: ${other}` }));
    }
    // The window holds the first root's row already: it is sent again, off the board.
    expect(deltas.flatMap((d) => d.changed).find((c) => c.path === real)).toMatchObject({ board: 'off', rivals: [copy] });
    expect((await core.board()).boards[0]?.compared).toBe(0);

    await core.removeRoot(backup);
    expect(await boardOf(real)).toMatchObject({ board: 'on', rivals: [], problems: [] });
    expect(deltas.flatMap((d) => d.changed).filter((c) => c.path === real).at(-1)).toMatchObject({ board: 'on', rivals: [] });
  });

  it('lists every cell beside a link that loops, and says that link is one, in the root and in a cell', async () => {
    symlinkSync('selfloop', join(runs, 'selfloop'));
    symlinkSync('selfloop', join(runs, 'ui_a', 'selfloop'));
    symlinkSync('loop2', join(runs, 'nonstd_b', 'summary.json'));
    symlinkSync('summary.json', join(runs, 'nonstd_b', 'loop2'));
    const core = await startCore({ configDir, transport: 'serve', commandLineRoots: [runs], rescan: false, nvidiaSmi: false });
    await core.scanned();
    expect((await core.listCells()).map((c) => c.name)).toEqual(['nonstd_b', 'ui_a']);
    const [root] = await core.listRoots();
    expect(root).toMatchObject({ state: 'ok', cellCount: 2 });
    expect(root?.problems).toEqual([{ file: join(runs, 'selfloop'), message: 'a link that leads back to itself (ELOOP)', severity: 'warning' }]);
  });

  it('shows command-line roots without saving them', async () => {
    const core = await startCore({ configDir, transport: 'serve', commandLineRoots: [runs], rescan: false, nvidiaSmi: false });
    await core.scanned();
    expect((await core.listRoots())[0]).toMatchObject({ path: runs, source: 'command line', cellCount: 2 });
    await core.removeRoot(runs);
    expect(await core.listRoots()).toEqual([]);
    expect(() => readFileSync(join(configDir, 'settings.json'))).toThrow();
  });

  it('keeps a missing root as a problem on that root while the others work', async () => {
    const gone = join(tmp.path, 'gone');
    const core = await startCore({ configDir, transport: 'serve', commandLineRoots: [gone, runs], rescan: false, nvidiaSmi: false });
    await core.scanned();
    const roots = await core.listRoots();
    expect(roots.map((r) => [r.path, r.state])).toEqual([
      [gone, 'missing'],
      [runs, 'ok'],
    ]);
    expect(roots[0]?.problems[0]?.file).toBe(gone);
    expect(await core.listCells()).toHaveLength(2);
  });

  it('tells listeners when roots change, and sends their cells as deltas', async () => {
    const core = await startCore({ configDir, transport: 'serve', rescan: false, nvidiaSmi: false });
    await core.scanned();
    const seen: RootStatus[][] = [];
    const deltas: CellsDelta[] = [];
    core.events.on('rootsChanged', (roots) => seen.push(roots));
    core.events.on('cellsChanged', (delta) => deltas.push(delta));
    await core.addRoot(runs);
    expect(seen.at(-1)).toEqual([expect.objectContaining({ path: runs, state: 'ok', cellCount: 2, progress: null })]);
    expect(deltas.flatMap((d) => d.added.map((c) => c.name)).sort()).toEqual(['nonstd_b', 'ui_a']);
    await core.removeRoot(runs);
    expect(seen.at(-1)).toEqual([]);
    expect(deltas.at(-1)?.removed).toHaveLength(2);
    await core.close();
  });

  it('starts with a root it cannot use in its settings (relative, a NUL byte), saying so, and refuses one typed', async () => {
    writeTree(configDir, { 'settings.json': { roots: ['relative/runs', runs] } });
    const core = await startCore({ configDir, transport: 'serve', rescan: false, nvidiaSmi: false });
    await core.scanned();
    expect((await core.listRoots()).map((r) => r.path)).toEqual([runs]);
    expect((await core.getInfo()).problems).toEqual([expect.objectContaining({ file: join(configDir, 'settings.json'), message: expect.stringContaining('"relative/runs" ignored') })]);
    await expect(core.addRoot(`${runs}\u0000x`)).rejects.toThrow('NUL byte');
    await core.close();
  });

  it('starts on a corrupt settings file, says which file, and rewrites it on the next change', async () => {
    writeTree(configDir, { 'settings.json': '{"roots": [' });
    const core = await startCore({ configDir, transport: 'serve', rescan: false, nvidiaSmi: false });
    await core.scanned();
    const info = await core.getInfo();
    expect(info.problems).toEqual([{ file: join(configDir, 'settings.json'), message: expect.stringContaining('not valid JSON'), severity: 'error' }]);
    expect(readFileSync(join(configDir, 'settings.json'), 'utf8')).toBe('{"roots": [');
    await core.addRoot(runs);
    expect((await core.getInfo()).problems).toEqual([]);
    expect(JSON.parse(readFileSync(join(configDir, 'settings.json'), 'utf8')).roots).toEqual([runs]);
  });

  it('has no folder picker in serve mode', async () => {
    const core = await startCore({ configDir, transport: 'serve', rescan: false, nvidiaSmi: false });
    await core.scanned();
    expect((await core.getInfo()).canPickFolder).toBe(false);
    await expect(core.pickFolder()).rejects.toThrow(/type the runs root path/);
  });
});

describe('core: paths the user types', () => {
  it('refuses a relative path and expands ~', async () => {
    const core = await startCore({ configDir, transport: 'serve', rescan: false, nvidiaSmi: false });
    await core.scanned();
    await expect(core.addRoot('runs')).rejects.toThrow('runs root must be an absolute path (or ALIAS:/path on an SSH host), not "runs"');
    expect((await core.addRoot('~/cellwatch-test-nowhere')).path).toBe(join(homedir(), 'cellwatch-test-nowhere'));
  });
});

describe("core: a hosts file's limits", () => {
  it('lists only the cells of the benchmarks its entry names, says how many it leaves out, and follows a cell into and out of the limit', async () => {
    const evo = (benchmark: string) => ({ runner: 'evopolicygym', benchmark, agent: { provider: 'codex', model: 'gpt-5.6-luna', effort: 'high' }, config: { episode_budget: 30 } });
    writeTree(runs, { 'cart/run.json': evo('cartpole'), 'acro/run.json': evo('acrobot') });
    writeTree(configDir, { 'hosts.me.local.yml': 'local: {jobs: ../runs, benchmarks: [cartpole]}\n' });
    const core = await startCore({ configDir, transport: 'serve', rescan: false, nvidiaSmi: false });
    await core.scanned();
    expect((await core.listCells()).map((c) => c.name)).toEqual(['cart']);
    expect(await core.listRoots()).toEqual([expect.objectContaining({ path: runs, source: 'hosts file', cellCount: 1, limit: { benchmarks: ['cartpole'], runs: [], hidden: 3 } })]);

    const deltas: CellsDelta[] = [];
    core.events.on('cellsChanged', (delta) => deltas.push(delta));
    writeTree(runs, { 'acro/run.json': evo('cartpole'), 'cart/run.json': evo('mountaincar') });
    await expect.poll(async () => (await core.listCells()).map((c) => c.name)).toEqual(['acro']);
    expect(deltas.flatMap((d) => d.removed)).toContain(`local:${join(runs, 'cart')}`);
    expect(deltas.flatMap((d) => [...d.added, ...d.changed]).map((c) => c.name)).not.toContain('cart');
  });
});

describe('core: the demo and rescans', () => {
  it('runs the demo live when no root is configured, until the user removes it for good', async () => {
    const demoRoot = join(tmp.path, 'demo');
    const core = await startCore({ configDir, transport: 'serve', demoRoot, rescan: false, nvidiaSmi: false });
    await core.scanned();
    try {
      expect((await core.listRoots()).map((r) => [r.path, r.source])).toEqual([[demoRoot, 'demo']]);
      await core.removeRoot(demoRoot);
      expect(await core.listRoots()).toEqual([]);
    } finally {
      await core.close();
    }
    const again = await startCore({ configDir, transport: 'serve', demoRoot, rescan: false, nvidiaSmi: false });
    await again.scanned();
    expect(await again.listRoots()).toEqual([]);
    await again.close();
  });

  it('does not start the demo when a root is configured', async () => {
    const core = await startCore({ configDir, transport: 'serve', demoRoot: join(tmp.path, 'demo'), commandLineRoots: [runs], rescan: false, nvidiaSmi: false });
    await core.scanned();
    expect((await core.listRoots()).map((r) => r.source)).toEqual(['command line']);
    await core.close();
  });

  it('finds a cell that appears later and tells listeners', async () => {
    const core = await startCore({ configDir, transport: 'serve', commandLineRoots: [runs], nvidiaSmi: false });
    await core.scanned();
    try {
      const seen: number[] = [];
      core.events.on('rootsChanged', (roots) => seen.push(roots[0]?.cellCount ?? 0));
      writeTree(runs, { 'ui_c/run.json': { runner: 'coding-agent' } });
      await expect.poll(() => seen.at(-1)).toBe(3);
      expect((await core.listCells()).map((c) => c.name)).toContain('ui_c');
    } finally {
      await core.close();
    }
  });
});

describe('core: a launch that started', () => {
  it('is reported as started whatever fails after it (here: its folder cannot be saved as a root), and is there once', async () => {
    // Settings that cannot be written: the launch's new root is refused after the run started.
    mkdirSync(join(configDir, 'settings.json'), { recursive: true });
    const core = await startCore({ configDir, dataDir: join(tmp.path, 'data'), transport: 'serve', rescan: false, nvidiaSmi: false });
    const told: string[][] = [];
    core.events.on('runsChanged', (runs) => told.push(runs.map((r) => `${r.name} ${r.state}`)));
    const launched = await core.launchRun({ profile: 'demo', values: { root: join(tmp.path, 'ui-runs'), speed: '50' }, label: 'odd' });
    expect(launched.problem).toMatch(/^started, but its cell is not watched: could not read /);
    expect(launched.cellId).toBeNull();
    expect((await core.listRuns()).map((r) => [r.name, r.state])).toEqual([[launched.run.name, 'running']]);
    // Windows are told of the run as it starts and as it is stopped, before the calls answer.
    expect(told.at(-1)).toEqual([`${launched.run.name} running`]);
    await core.stopRun(launched.run.id);
    expect(told.at(-1)).toEqual([`${launched.run.name} stopped`]);
  });
});
