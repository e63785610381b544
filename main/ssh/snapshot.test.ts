import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localFs, type CellFs } from '../../runners';
import { tempDir, writeTree } from '../../runners/testing';
import { SnapshotFs, snapshotCommand } from './snapshot';
import { findCells } from '../scan';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.remove());

/** The snapshot of `root` as the host's shell would print it (here, sh on this machine). */
const snapshot = (root: string, depth: number) => new SnapshotFs(execFileSync('sh', ['-c', snapshotCommand(root, depth)], { encoding: 'utf8' }), root, depth, localFs);

describe('a remote root in one command', () => {
  it('lists folders and files with sizes, holds small JSON files whole, and leaves frames out', async () => {
    const root = join(tmp.path, 'runs');
    writeTree(root, {
      'cell a/run.json': { runner: 'coding-agent', note: 'line one\nline two' },
      'cell a/summary.json': '{\n  "finished": true\n}\n',
      'cell a/episodes/0000/trajectory.jsonl': '{"seq":0}\n',
      'cell a/episodes/0000/frames/000001.png': 'png',
    });
    const fs = snapshot(root, 5);
    expect((await fs.list(root))?.map((e) => e.name)).toEqual(['cell a']);
    expect((await fs.list(join(root, 'cell a', 'episodes', '0000')))?.map((e) => [e.name, e.kind]).sort()).toEqual([['frames', 'dir'], ['trajectory.jsonl', 'file']]);
    expect(await fs.list(join(root, 'cell a', 'episodes', '0000', 'frames'))).toEqual([]);
    expect(await fs.stat(join(root, 'cell a', 'episodes', '0000', 'trajectory.jsonl'))).toMatchObject({ size: 10, kind: 'file' });
    expect(await fs.stat(join(root, 'cell a', 'missing.json'))).toBeNull();
    expect(JSON.parse((await fs.read(join(root, 'cell a', 'run.json'), 1 << 20))?.text ?? '')).toEqual({ runner: 'coding-agent', note: 'line one\nline two' });
    expect(await findCells(fs, root, [])).toEqual([{ dir: join(root, 'cell a'), format: 'coding-agent' }]);
  });

  it('asks the file system behind it below its depth and for byte ranges', async () => {
    const root = join(tmp.path, 'runs');
    writeTree(root, { 'a/b/c/deep.json': { deep: true }, 'a/log.jsonl': '{"seq":0}\n{"seq":1}\n' });
    const fs = snapshot(root, 2);
    expect((await fs.list(join(root, 'a', 'b')))?.map((e) => e.name)).toEqual(['c']);
    expect((await fs.read(join(root, 'a', 'b', 'c', 'deep.json'), 1000))?.text).toBe('{"deep":true}');
    expect((await fs.readFrom(join(root, 'a', 'log.jsonl'), 10, 100))?.text).toBe('{"seq":1}\n');
  });

  it('reads a byte range of a file it lists as its listed size gives, with no look at the file first; what lies below its depth through the file system behind it', async () => {
    const root = join(tmp.path, 'runs');
    writeTree(root, { 'a/log.jsonl': '{"seq":0}\n{"seq":1}\n', 'a/b/c/deep.jsonl': '{"deep":true}\n' });
    const asked: string[] = [];
    const behind: CellFs = { ...localFs, stat: (path) => (asked.push(path), localFs.stat(path)), readBytes: (path, at, most, into) => (asked.push(path), localFs.readBytes(path, at, most, into)) };
    const ranges: [string, number, number][] = [];
    const ranged = async (path: string, position: number, length: number) => (ranges.push([path, position, length]), readFileSync(path).subarray(position, position + length));
    const fs = new SnapshotFs(execFileSync('sh', ['-c', snapshotCommand(root, 2)], { encoding: 'utf8' }), root, 2, behind, ranged);
    const log = join(root, 'a', 'log.jsonl');
    // Grown since the snapshot: read as the snapshot saw it, as its stat (the snapshot's) says it is.
    appendFileSync(log, '{"seq":2}\n');
    expect(await fs.readFrom(log, 10, 100)).toEqual({ text: '{"seq":1}\n', truncated: false });
    expect(await fs.readBytes(log, 0, 5)).toEqual({ bytes: Buffer.from('{"seq'), truncated: true });
    expect(await fs.readFrom(log, 20, 100)).toEqual({ text: '', truncated: false });
    expect(ranges).toEqual([[log, 10, 10], [log, 0, 5]]);
    const deep = join(root, 'a', 'b', 'c', 'deep.jsonl');
    expect((await fs.read(deep, 100))?.text).toBe('{"deep":true}\n');
    expect(asked).toEqual([deep]);
  });

  it('keeps each file its own: a JSON file holding the separators or a NUL cannot pass text off as another cell\'s', async () => {
    const root = join(tmp.path, 'runs');
    const honest = { episodes: { '0': { success: false } }, n: 36 };
    writeTree(root, {
      // Sorted before b/ by find on most file systems; either way it must not rewrite b/summary.json.
      'a/run.json': `{"x": "\u0001\u0001F ${join(root, 'b', 'summary.json')}\u0001{"n": 37}\u0001", "y": "100%01 %25 \u0000"}`,
      'b/summary.json': honest,
    });
    const fs = snapshot(root, 5);
    expect(JSON.parse((await fs.read(join(root, 'b', 'summary.json'), 1 << 20))?.text ?? '')).toEqual(honest);
    expect((await fs.read(join(root, 'a', 'run.json'), 1 << 20))?.text).toBe(`{"x": "\u0001\u0001F ${join(root, 'b', 'summary.json')}\u0001{"n": 37}\u0001", "y": "100%01 %25 \u0000"}`);
  });

  it('tells whether a later snapshot says the same of a path: kind, size and mtime, a folder by its entries too; never below its depth', () => {
    const listing = (...entries: string[]) => new SnapshotFs(entries.map((e) => `E ${e}\0`).join(''), '/r', 3, localFs);
    const cell = ['d 4096 1 /r', 'd 4096 5 /r/c', 'f 10 2 /r/c/run.json', 'd 4096 3 /r/c/episodes', 'd 4096 3 /r/c/episodes/0000'];
    const before = listing(...cell);
    // An episode added within the folder's clock tick: its size and mtime as they were, its entries not.
    const added = listing(...cell, 'd 4096 7 /r/c/episodes/0001');
    expect(before.sameAs(added, '/r/c/run.json')).toBe(true);
    expect(before.sameAs(added, '/r/c/missing.json')).toBe(true);
    expect(before.sameAs(added, '/r/c/episodes')).toBe(false);
    expect(before.sameAs(listing(...cell), '/r/c/episodes')).toBe(true);
    expect(before.sameAs(listing(...cell.slice(0, 2), 'f 11 2 /r/c/run.json', ...cell.slice(3)), '/r/c/run.json')).toBe(false);
    expect(before.sameAs(listing(...cell.slice(0, 2), 'f 10 2.5 /r/c/run.json', ...cell.slice(3)), '/r/c/run.json')).toBe(false);
    expect(before.sameAs(listing(...cell.slice(0, 2), ...cell.slice(3)), '/r/c/run.json')).toBe(false);
    // At its depth a folder's entries are not listed, below it nothing is, outside the root nothing is.
    expect(before.sameAs(listing(...cell), '/r/c/episodes/0000')).toBe(false);
    expect(before.sameAs(listing(...cell), '/r/c/episodes/0000/trajectory.jsonl')).toBe(false);
    expect(before.sameAs(listing(...cell), '/elsewhere/run.json')).toBe(false);
  });

  it('does not follow a link below the root: a cell holding a link to /usr lists the link, not /usr', async () => {
    const root = join(tmp.path, 'runs');
    writeTree(root, { 'cell/run.json': { runner: 'coding-agent' } });
    symlinkSync('/usr', join(root, 'cell', 'linked'));
    const output = execFileSync('sh', ['-c', snapshotCommand(root, 7)], { encoding: 'utf8' });
    expect(output).not.toContain('/linked/');
    expect(await findCells(new SnapshotFs(output, root, 7, localFs), root, [])).toEqual([{ dir: join(root, 'cell'), format: 'coding-agent' }]);
  });
});
