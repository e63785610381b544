import { appendFileSync, mkdirSync, rmSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../runners/testing';
import { watchTree, type TreeWatcher } from './tree-watcher';
import type { Change } from '../changes';

let tmp: ReturnType<typeof tempDir>;
let watcher: TreeWatcher | undefined;
let told: string[];
let kinds: Map<string, Change['kind'][]>;
let failures: NodeJS.ErrnoException[];
beforeEach(() => {
  tmp = tempDir();
  told = [];
  kinds = new Map();
  failures = [];
});
afterEach(() => {
  watcher?.close();
  tmp.remove();
});

/** A Linux-style watch (one per folder), as on this machine, whatever the platform. */
async function start(options: { depth?: number; ignored?: (path: string) => boolean; watch?: typeof watch; recursive?: boolean } = {}): Promise<void> {
  watcher = await watchTree(tmp.path, {
    depth: options.depth ?? 4,
    ignored: options.ignored ?? (() => false),
    onChange: (path, kind) => {
      told.push(path);
      kinds.set(path, [...(kinds.get(path) ?? []), kind]);
    },
    onFailure: (error) => failures.push(error),
    watch: options.watch,
    recursive: options.recursive ?? false,
  });
}
const hears = (path: string) => expect.poll(() => told.includes(path)).toBe(true);

describe('the watch of a folder tree', () => {
  it('tells a line appended deep below the root, and a file in a folder made after the watch began', async () => {
    writeTree(tmp.path, { 'batch/cell/episodes/0000/trajectory.jsonl': '' });
    await start();
    appendFileSync(join(tmp.path, 'batch/cell/episodes/0000/trajectory.jsonl'), '{}\n');
    await hears(join(tmp.path, 'batch/cell/episodes/0000/trajectory.jsonl'));
    mkdirSync(join(tmp.path, 'batch/cell/episodes/0001'));
    await hears(join(tmp.path, 'batch/cell/episodes/0001'));
    // Its own watch is set up a moment after the folder is told.
    await new Promise((r) => setTimeout(r, 200));
    writeFileSync(join(tmp.path, 'batch/cell/episodes/0001/trajectory.jsonl'), '{}\n');
    await hears(join(tmp.path, 'batch/cell/episodes/0001/trajectory.jsonl'));
  });

  // What a cell's view makes of them: a log it follows written to needs no reread, a file made beside it does.
  it.each([
    ['one watch a folder (Linux)', false],
    ['one recursive watch (macOS, Windows)', true],
  ])('with %s, tells a file written to as modified, one made or removed as changed', async (_kind, recursive) => {
    writeTree(tmp.path, { 'cell/log.jsonl': '' });
    await start({ recursive });
    appendFileSync(join(tmp.path, 'cell/log.jsonl'), '{}\n');
    await hears(join(tmp.path, 'cell/log.jsonl'));
    writeFileSync(join(tmp.path, 'cell/summary.json'), '{}');
    await hears(join(tmp.path, 'cell/summary.json'));
    rmSync(join(tmp.path, 'cell/log.jsonl'));
    await expect.poll(() => kinds.get(join(tmp.path, 'cell/log.jsonl'))?.at(-1)).toBe('changed');
    expect(kinds.get(join(tmp.path, 'cell/log.jsonl'))?.[0]).toBe('modified');
    expect(kinds.get(join(tmp.path, 'cell/summary.json'))?.[0]).toBe('changed');
  });

  it('a folder removed and made again is watched again', async () => {
    writeTree(tmp.path, { 'cell/episodes/0000/trajectory.jsonl': '' });
    await start();
    rmSync(join(tmp.path, 'cell/episodes'), { recursive: true });
    await hears(join(tmp.path, 'cell/episodes'));
    told = [];
    mkdirSync(join(tmp.path, 'cell/episodes/0000'), { recursive: true });
    await hears(join(tmp.path, 'cell/episodes'));
    await new Promise((r) => setTimeout(r, 200));
    writeFileSync(join(tmp.path, 'cell/episodes/new.json'), '{}');
    await hears(join(tmp.path, 'cell/episodes/new.json'));
  });

  // Node has a recursive watch on Linux too (set up by walking the tree): this machine runs both branches.
  it.each([
    ['one watch a folder (Linux)', false],
    ['one recursive watch (macOS, Windows)', true],
  ])('with %s, tells nothing of ignored paths nor below the depth', async (_kind, recursive) => {
    writeTree(tmp.path, { 'cell/frames/0.png': '', 'cell/a/c.json': '', 'cell/log.jsonl': '' });
    await start({ depth: 1, ignored: (path) => path.endsWith('frames') || path.includes('/frames/'), recursive });
    await new Promise((r) => setTimeout(r, 300));
    writeFileSync(join(tmp.path, 'cell/frames/1.png'), '');
    writeFileSync(join(tmp.path, 'cell/a/c.json'), '{}');
    appendFileSync(join(tmp.path, 'cell/log.jsonl'), '{}\n');
    await hears(join(tmp.path, 'cell/log.jsonl'));
    await new Promise((r) => setTimeout(r, 200));
    expect(told.filter((path) => path.includes('frames') || path.includes('/a/'))).toEqual([]);
  });

  it('at the OS limit of watches, stops once and says why', async () => {
    writeTree(tmp.path, { 'a/x.json': '', 'b/y.json': '', 'c/z.json': '' });
    let watches = 0;
    const limited = ((...args: Parameters<typeof watch>) => {
      if (++watches > 2) throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached, watch'), { code: 'ENOSPC' });
      return watch(...args);
    }) as typeof watch;
    await start({ watch: limited });
    expect(failures.map((f) => f.code)).toEqual(['ENOSPC']);
    // Closed: the watches it had tell nothing more.
    writeFileSync(join(tmp.path, 'a/x.json'), '{}');
    await new Promise((r) => setTimeout(r, 200));
    expect(told).toEqual([]);
  });
});
