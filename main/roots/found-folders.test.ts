import { mkdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MORE_ENTRIES, type Entry } from '../../runners';
import { tempDir } from '../../runners/testing';
import { FoundFolders } from './found-folders';

let tmp: ReturnType<typeof tempDir>;
let cell: string;
const entries: Entry[] = [
  { name: 'run.json', kind: 'file' },
  { name: 'episodes', kind: 'dir' },
];
const hourAgo = () => new Date(Date.now() - 3_600_000);
beforeEach(() => {
  tmp = tempDir();
  cell = join(tmp.path, 'cell');
  mkdirSync(join(cell, 'episodes'), { recursive: true });
  writeFileSync(join(cell, 'run.json'), '{}');
  utimesSync(cell, hourAgo(), hourAgo());
});
afterEach(() => tmp.remove());

describe("a cell folder's listing from its discovery", () => {
  const now = async () => statSync(cell);
  /** Discovery lists the cell and keeps its listing, with the folder's stat now. */
  const listedAndKept = (found: FoundFolders, listing = entries) => {
    found.listed(cell, listing);
    found.keep([cell], () => statSync(cell));
  };

  it('says a file it did not hold is not there while the folder is as it was', async () => {
    const found = new FoundFolders();
    listedAndKept(found);
    found.read(cell);
    await expect(found.lacks(join(cell, 'DRAIN'), now)).resolves.toBe(true);
    // What it held, what lies deeper and what lies beside the folder are asked of the disk.
    await expect(found.lacks(join(cell, 'run.json'), now)).resolves.toBe(false);
    await expect(found.lacks(join(cell, 'episodes', 'DRAIN'), now)).resolves.toBe(false);
    await expect(found.lacks(join(tmp.path, 'DRAIN'), now)).resolves.toBe(false);
    // The folder is looked at again only for a name its listing lacked: the read asks for no stat more.
    let asked = 0;
    const counted = async () => (asked++, statSync(cell));
    await found.lacks(join(cell, 'run.json'), counted);
    await found.lacks(join(cell, 'episodes', 'trajectory.jsonl'), counted);
    expect(asked).toBe(0);
    // Taken once: the next read of the cell asks the disk.
    found.read(cell);
    await expect(found.lacks(join(cell, 'DRAIN'), now)).resolves.toBe(false);
  });

  it('says nothing once an entry was added to the folder since, or the folder is gone', async () => {
    const found = new FoundFolders();
    listedAndKept(found);
    writeFileSync(join(cell, 'DRAIN'), '');
    found.read(cell);
    await expect(found.lacks(join(cell, 'DRAIN'), now)).resolves.toBe(false);
    await expect(found.lacks(join(cell, 'DRAIN'), async () => null)).resolves.toBe(false);
  });

  it('is not kept when the folder changed moments before it was listed (an entry added in the same tick would not move its mtime), nor when it was cut', async () => {
    const found = new FoundFolders();
    writeFileSync(join(cell, 'driver.log'), '');
    listedAndKept(found);
    found.read(cell);
    await expect(found.lacks(join(cell, 'DRAIN'), now)).resolves.toBe(false);
    utimesSync(cell, hourAgo(), hourAgo());
    listedAndKept(found, [...entries, MORE_ENTRIES]);
    found.read(cell);
    await expect(found.lacks(join(cell, 'DRAIN'), now)).resolves.toBe(false);
    // Listed whole and old enough, the same folder's listing is kept.
    listedAndKept(found);
    found.read(cell);
    await expect(found.lacks(join(cell, 'DRAIN'), now)).resolves.toBe(true);
  });
});
