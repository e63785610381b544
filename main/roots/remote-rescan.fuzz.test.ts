// A remote root's rescan does not read a cell again when the last scan's snapshot and this one say the
// same of every file and folder its last read looked at (unchangedBetween). Proven against reading it
// again: the demo's cells of every format, snapshotted by the real command, changed at random (lines
// appended, files rewritten at the same size, added, removed, touched, frames added), snapshotted again,
// forty times over. Wherever a cell is not read again, reading it again gives the same row.
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prng } from '../../runners/demo/prng';
import { JsonReader, localFs, type CellFs } from '../../runners';
import { copyInstantDemo, DEMO_EPOCH_S } from '../../runners/demo/testing';
import { readCell, summaryOf } from '../../runners/read';
import { tempDir } from '../../runners/testing';
import { findCells, REMOTE_DEPTH, type Found } from '../scan';
import { SnapshotFs, snapshotCommand } from '../ssh/snapshot';
import { unchangedBetween } from '../place/snapshot';
import { LookingFs, type Looked } from './looked';

let tmp: ReturnType<typeof tempDir>;
const demo = () => join(tmp.path, 'demo');
beforeAll(async () => {
  tmp = tempDir();
  copyInstantDemo(demo());
  // Its frames but one episode's: a row reads none of them, and 6,000 files snapshotted forty times take most of the test's time.
  const frames = execFileSync('find', [demo(), '-name', '*.png'], { encoding: 'utf8' }).trim().split('\n');
  const kept = dirname(frames[0] as string);
  for (const frame of frames) if (dirname(frame) !== kept) rmSync(frame);
});
afterAll(() => tmp.remove());

const NOW = (DEMO_EPOCH_S + 3600) * 1000;
const snapshot = (root: string) => new SnapshotFs(execFileSync('sh', ['-c', snapshotCommand(root, REMOTE_DEPTH)], { encoding: 'utf8', maxBuffer: 1 << 28 }), root, REMOTE_DEPTH, localFs);

/** A cell read over `fs` as the index reads it: its row, and what the read looked at. */
async function readOver(fs: CellFs, cell: Found, root: string): Promise<{ row: string; looked: Looked }> {
  const looking = new LookingFs(fs);
  const looked = looking.begin();
  const read = await readCell(cell.dir, cell.format, { fs: looking, json: new JsonReader(looking, { keepLastGood: false }), now: NOW, host: 'gpu1' });
  return { row: JSON.stringify(summaryOf(read, root)), looked };
}

/** Seeded picks (the demo's generator). */
function random(seed: number) {
  const next = prng(seed);
  return { next, pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T };
}

/**
 * One change to `file`; every file it touches gets a time of its own (`at`, in seconds), as a later write
 * would; its folder too, or, half the time, the time it had (a change within the clock tick of the last
 * snapshot: its entries alone tell).
 */
function change(r: ReturnType<typeof random>, file: string, at: number): string {
  const stamp = (path: string) => utimesSync(path, at, at);
  const what = r.pick(['append', 'same size', 'remove', 'add', 'touch', 'frame', 'folder'] as const);
  // A new folder beside the file's, named as it is (a new episode, a new version): its folder's folder changes.
  const sibling = (name: string) => name.replace(/\d+$/, (digits) => String(500 + (at % 400)).padStart(digits.length, '0').slice(-digits.length));
  if (what === 'folder') file = join(dirname(dirname(file)), sibling(basename(dirname(file))), basename(file));
  const folder = statSync(dirname(what === 'folder' ? dirname(file) : file));
  if (what === 'append') appendFileSync(file, file.endsWith('.jsonl') ? '{"seq": 999999, "t": 1764406800, "ev": "note"}\n' : '\n');
  else if (what === 'same size') {
    const text = readFileSync(file, 'latin1');
    const at = text.search(/[0-8]/);
    writeFileSync(file, at < 0 ? text : `${text.slice(0, at)}${Number(text[at]) + 1}${text.slice(at + 1)}`, 'latin1');
  } else if (what === 'remove') rmSync(file);
  else if (what === 'add') writeFileSync(join(dirname(file), r.pick(['extra.json', 'summary.json', 'late.jsonl', 'driver.log'])), '{"finished": true}\n');
  else if (what === 'folder') {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '{"seq": 0, "t": 1764406800, "ev": "episode_start"}\n');
  } else if (what === 'frame') writeFileSync(join(dirname(file), statSafe(join(dirname(file), 'frames')) ? 'frames/999999.png' : '999999.png'), 'png');
  if (what !== 'remove') stamp(file);
  const changed = what === 'folder' ? dirname(dirname(file)) : dirname(file);
  if (r.next() < 0.5) stamp(changed);
  else utimesSync(changed, folder.atime, folder.mtime);
  return what;
}
const statSafe = (path: string) => {
  try {
    return statSync(path);
  } catch {
    return null;
  }
};

describe("a remote root's rescan against reading every cell again", () => {
  it('skips a cell only where reading it again gives the same row; an untouched cell of every format is skipped', async () => {
    let skipped = 0;
    let changedAndRead = 0;
    let rowsChanged = 0;
    const untouchedFormats = new Set<string>();
    const root = demo();
    const r = random(1);
    // Rescan after rescan of one root, a few changes between each.
    let before = snapshot(root);
    for (let round = 1; round <= 40; round++) {
      const cells = await findCells(before, root, []);
      const first = new Map(await Promise.all(cells.map(async (c) => [c.dir, await readOver(before, c, root)] as const)));
      const files = execFileSync('find', [root, '-type', 'f'], { encoding: 'utf8' }).trim().split('\n');
      // Mostly the files the reads looked at: the changes that can change a row.
      const looked = [...first.values()].flatMap((read) => [...read.looked.files]).filter((f) => files.includes(f));
      const touched: string[] = [];
      for (let i = 0; i < 1 + Math.floor(r.next() * 4); i++) {
        const file = r.next() < 0.7 && looked.length ? r.pick(looked) : r.pick(files.filter((f) => !f.endsWith('.png') || r.next() < 0.1));
        if (!statSafe(file)) continue;
        touched.push(file);
        change(r, file, DEMO_EPOCH_S + 7200 + round * 10 + i);
      }
      const after = snapshot(root);
      for (const cell of await findCells(after, root, [])) {
        const was = first.get(cell.dir);
        if (!was) continue;
        const again = await readOver(after, cell, root);
        // A cell that is a file (a collection, a log) is read with the files beside it.
        const home = statSafe(cell.dir)?.isFile() ? dirname(cell.dir) : cell.dir;
        const untouched = !touched.some((f) => f.startsWith(`${home}/`));
        if (again.row !== was.row) rowsChanged++;
        if (unchangedBetween(before, after, was.looked)) {
          skipped++;
          expect(again.row, `round ${round}: ${cell.dir} skipped, its row changed (touched ${touched.join(', ')})`).toBe(was.row);
        } else {
          changedAndRead++;
          expect(untouched, `round ${round}: ${cell.dir} read again though nothing in it changed`).toBe(false);
        }
        if (untouched) untouchedFormats.add(cell.format);
      }
      before = after;
    }
    if (process.env.DBG) console.log({ skipped, changedAndRead, rowsChanged });
    expect(rowsChanged, 'no change ever changed a row: the fuzz proves nothing').toBeGreaterThan(10);
    expect(skipped).toBeGreaterThan(0);
    expect([...untouchedFormats].sort()).toEqual(['bigym-agent', 'coding-agent', 'evopolicygym', 'inspect', 'nemo-gym']);
  }, 120_000);
});
