import { execFileSync } from 'node:child_process';
import { buildSync } from 'esbuild';
import { chmodSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LocalIndex } from './roots/local-index';
import { ReaderPool } from './roots/pool';
import { findCells, knownByFolder, type Found, type ScanResult } from './scan';
import { syncLocalFs } from '../runners';
import type { FormatName, Problem } from '../shared/model';
import { tempDir, writeTree } from '../runners/testing';

let tmp: ReturnType<typeof tempDir>;
let pool: ReaderPool;
beforeAll(() => (pool = new ReaderPool(2)));
afterAll(() => pool.close());

/** A root's first scan by its index (the read workers), no watcher. */
async function scanRoot(root: string): Promise<ScanResult> {
  const index = new LocalIndex(root, pool, () => undefined, () => undefined, { watch: false });
  await index.start();
  await index.close();
  const { state, problems } = index.status('command line');
  return { state: state === 'scanning' ? 'ok' : state, problems, cells: index.list() };
}
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.remove());

describe('the first scan of a runs root', () => {
  it('finds cells of every format down to three folders, and none below', async () => {
    writeTree(tmp.path, {
      'std_sdk_fable-5_bare_default/run.json': { runner: 'coding-agent' },
      'a/ui_mine/run.json': { runner: 'coding-agent' },
      'a/b/move_plate/run.json': { runner: 'bigym-agent' },
      'a/b/c/too_deep/run.json': { runner: 'coding-agent' },
      'evo/rec1/run.json': { runner: 'evopolicygym' },
      'jobs/2026-11-29__08-00-00/config.json': { job_name: '2026-11-29__08-00-00' },
      'not-a-cell/run.json': { runner: 'something-else' },
      'broken/run.json': '{"runner": "coding-ag',
    });
    const result = await scanRoot(tmp.path);
    expect(result.state).toBe('ok');
    expect(result.cells.map((c) => [c.name, c.format, c.board])).toEqual([
      ['move_plate', 'bigym-agent', 'off'],
      ['ui_mine', 'coding-agent', 'ui'],
      ['rec1', 'evopolicygym', null],
      ['2026-11-29__08-00-00', 'harbor-job', null],
      ['std_sdk_fable-5_bare_default', 'coding-agent', 'off'],
    ]);
    expect(result.cells[0]).toMatchObject({ host: 'local', root: tmp.path, id: `local:${join(tmp.path, 'a/b/move_plate')}` });
  });

  it('does not look inside a cell for more cells', async () => {
    writeTree(tmp.path, { 'outer/run.json': { runner: 'coding-agent' }, 'outer/inner/run.json': { runner: 'coding-agent' } });
    expect((await scanRoot(tmp.path)).cells.map((c) => c.name)).toEqual(['outer']);
  });

  it('ends on a symlink loop and still finds the cells beside it', async () => {
    writeTree(tmp.path, { 'a/cell/run.json': { runner: 'bigym-agent' } });
    symlinkSync(tmp.path, join(tmp.path, 'a', 'loop'));
    const result = await scanRoot(tmp.path);
    expect(result.cells.map((c) => c.name)).toEqual(['cell']);
  });

  it('lists a cell once when a sibling link or two links lead to it; a link to a cell elsewhere is kept', async () => {
    writeTree(tmp.path, { 'runs/a/cell/run.json': { runner: 'bigym-agent' }, 'elsewhere/far/run.json': { runner: 'coding-agent' } });
    symlinkSync(join(tmp.path, 'runs', 'a'), join(tmp.path, 'runs', 'b'));
    symlinkSync(join(tmp.path, 'runs', 'a'), join(tmp.path, 'runs', 'c'));
    symlinkSync(join(tmp.path, 'elsewhere', 'far'), join(tmp.path, 'runs', 'far'));
    const result = await scanRoot(join(tmp.path, 'runs'));
    expect(result.cells.map((c) => c.path)).toEqual([join(tmp.path, 'runs', 'a', 'cell'), join(tmp.path, 'runs', 'far')]);
  });

  it('says a missing root is missing, with its path', async () => {
    const missing = join(tmp.path, 'nope');
    const result = await scanRoot(missing);
    expect(result.state).toBe('missing');
    expect(result.problems).toEqual([{ file: missing, message: expect.stringContaining('does not exist'), severity: 'error' }]);
  });

  it('says a file given as a root is not a folder', async () => {
    writeTree(tmp.path, { 'file.txt': 'x' });
    const result = await scanRoot(join(tmp.path, 'file.txt'));
    expect(result.state).toBe('missing');
    expect(result.problems[0]?.message).toContain('not a folder');
  });

  it('says which run.json is no JSON or too large to read, and lists the cells beside it; a config.json of any other tool is nobody\'s problem', async () => {
    writeTree(tmp.path, {
      'ok/run.json': { runner: 'coding-agent' },
      'cut/run.json': '{"runner": "coding-ag',
      'other/run.json': { runner: 'some-other-runner' },
      'tool/config.json': 'not json, and not ours',
      // Empty: a runner that has just made it, about to write it; one left empty is said below.
      'starting/run.json': '',
      'left-empty/run.json': '',
    });
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
    utimesSync(join(tmp.path, 'left-empty', 'run.json'), minutesAgo(1), minutesAgo(1));
    // Fresh however long a busy machine takes to get to it.
    utimesSync(join(tmp.path, 'starting', 'run.json'), minutesAgo(-60), minutesAgo(-60));
    mkdirSync(join(tmp.path, 'huge'));
    writeFileSync(join(tmp.path, 'huge', 'run.json'), `{"runner": "coding-agent", "pad": "${'x'.repeat(17 << 20)}"}`);
    const result = await scanRoot(tmp.path);
    expect(result.cells.map((c) => c.path)).toEqual([join(tmp.path, 'ok')]);
    expect(result.problems.map((p) => `${p.file}: ${p.message}`).sort()).toEqual([
      `${join(tmp.path, 'cut', 'run.json')}: not valid JSON: the folder is not listed as a cell until it is`,
      `${join(tmp.path, 'huge', 'run.json')}: over 16 MB: too large to read; the folder is not listed as a cell`,
      `${join(tmp.path, 'left-empty', 'run.json')}: not valid JSON: the folder is not listed as a cell until it is`,
    ]);
    // Mended, it is a cell, and the problem is gone.
    writeTree(tmp.path, { 'cut/run.json': { runner: 'coding-agent' } });
    const again = await scanRoot(tmp.path);
    expect(again.cells.map((c) => c.path)).toEqual([join(tmp.path, 'cut'), join(tmp.path, 'ok')]);
    expect(again.problems.filter((p) => p.file.endsWith(join('cut', 'run.json')))).toEqual([]);
  });

  // Root reads every folder, so as root (how CI runs) the scan runs as an unprivileged user.
  it('reports an unreadable subfolder as a problem and keeps the rest', async () => {
    writeTree(tmp.path, { 'ok/run.json': { runner: 'coding-agent' } });
    mkdirSync(join(tmp.path, 'locked'));
    chmodSync(join(tmp.path, 'locked'), 0);
    chmodSync(tmp.path, 0o755);
    try {
      const result = process.getuid?.() === 0 ? findAsNobody(tmp.path) : await findLocally(tmp.path);
      expect(result.cells.map((c) => c.dir)).toEqual([join(tmp.path, 'ok')]);
      expect(result.problems[0]).toMatchObject({ file: join(tmp.path, 'locked'), message: expect.stringContaining('permission denied') });
    } finally {
      chmodSync(join(tmp.path, 'locked'), 0o755);
    }
  });
});

async function findLocally(root: string): Promise<{ cells: Found[]; problems: Problem[] }> {
  const problems: Problem[] = [];
  return { cells: await findCells(syncLocalFs(), root, problems), problems };
}

/**
 * Finding cells in a child process running as `nobody` (uid 65534), through setpriv. The finder is bundled
 * into one file beside the root first: `nobody` may not be able to read the checkout (CI clones under /root).
 */
function findAsNobody(root: string): { cells: Found[]; problems: Problem[] } {
  const bundle = join(root, 'find-as-nobody.mjs');
  buildSync({
    stdin: {
      contents: `
        import { syncLocalFs } from './runners/common/fs.ts';
        import { findCells } from './main/scan.ts';
        const problems = [];
        const cells = await findCells(syncLocalFs(), process.argv[2], problems);
        process.stdout.write(JSON.stringify({ cells, problems }));`,
      resolveDir: join(import.meta.dirname, '..'),
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: bundle,
    logLevel: 'error',
  });
  const output = execFileSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '--', process.execPath, bundle, root], { cwd: '/', encoding: 'utf8' });
  return JSON.parse(output) as { cells: Found[]; problems: Problem[] };
}

describe('known cells by the root folder they are below', () => {
  it('puts each cell with its top folder, however deep, and a root that is a cell with the root', () => {
    const known = new Map<string, FormatName>([
      ['/runs/batch_1/a', 'coding-agent'],
      ['/runs/batch_1/x/y/b', 'coding-agent'],
      ['/runs/c', 'harbor-job'],
      ['/runs', 'evopolicygym'],
    ]);
    expect(Object.fromEntries(knownByFolder('/runs', known))).toEqual({
      '/runs/batch_1': [['/runs/batch_1/a', 'coding-agent'], ['/runs/batch_1/x/y/b', 'coding-agent']],
      '/runs/c': [['/runs/c', 'harbor-job']],
      '/runs': [['/runs', 'evopolicygym']],
    });
  });
});
