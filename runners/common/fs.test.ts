import { linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, tempDir } from '../testing';
import { CellReading } from './cell';
import { localFs, MAX_ENTRIES, MORE_ENTRIES, syncLocalFs } from './fs';

let tmp: ReturnType<typeof tempDir>;
let huge: string;
beforeAll(() => {
  tmp = tempDir();
  huge = join(tmp.path, 'cell', 'episodes');
  mkdirSync(huge, { recursive: true });
  // Hard links of a few empty files (ext4 allows 65,000 links a file): the quickest way to make 100,001 files.
  for (let i = 0; i <= MAX_ENTRIES; i++) {
    const source = join(huge, String(i - (i % 50_000)));
    if (i % 50_000 === 0) writeFileSync(source, '');
    else linkSync(source, join(huge, String(i)));
  }
}, 60_000);
afterAll(() => tmp.remove());

describe('a folder of more entries than are read', () => {
  it.each([['localFs', localFs], ['syncLocalFs', syncLocalFs()]])('%s lists the first ones and says there are more', async (_, fs) => {
    const entries = await fs.list(huge);
    expect(entries).toHaveLength(MAX_ENTRIES + 1);
    expect(entries?.at(-1)).toBe(MORE_ENTRIES);
    expect(entries?.slice(0, -1).every((e) => e.kind === 'file')).toBe(true);
  });

  it("is a problem of the cell that reads it, naming the folder; its entries are the first ones", async () => {
    const reading = new CellReading(join(tmp.path, 'cell'), context());
    expect(await reading.list('episodes')).toHaveLength(MAX_ENTRIES);
    expect(reading.problems).toEqual([{ file: 'episodes', message: 'episodes holds more than 100,000 entries; only the first 100,000 are read', severity: 'warning' }]);
  });
});
