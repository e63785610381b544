import { linkSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, tempDir } from '../testing';
import { prng } from '../demo/prng';
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
});
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

describe('a folder read in one call', () => {
  it('lists what a folder read a few entries at a time lists: kinds, links, odd names (random folders)', async () => {
    const next = prng(11);
    const random = (n: number) => Math.floor(next() * n);
    const oneCall = syncLocalFs();
    const fewAtATime = syncLocalFs(undefined, 0);
    for (let f = 0; f < 40; f++) {
      const dir = join(tmp.path, `random-${f}`);
      mkdirSync(dir);
      const names = Array.from({ length: random(60) }, (_, i) => `${['e', 'é', ' x', '.h', '#', 'Z'][random(6)]}${i}`);
      for (const name of names) {
        const path = join(dir, name);
        const kind = random(6);
        if (kind === 0) mkdirSync(path);
        else if (kind === 1) symlinkSync(join(dir, names[random(names.length)] as string), path);
        else if (kind === 2) symlinkSync(join(dir, 'nowhere'), path);
        else if (kind === 3) symlinkSync(path, path);
        else writeFileSync(path, 'x');
      }
      const size = statSync(dir).size;
      expect(size > 0 && size <= 64 * 1024).toBe(true);
      const listed = await oneCall.list(dir);
      expect(listed).toEqual(await fewAtATime.list(dir));
      expect(listed).toEqual(await localFs.list(dir));
      expect(listed).toHaveLength(names.length);
    }
    expect(await oneCall.list(join(tmp.path, 'missing'))).toBeNull();
    expect(await oneCall.list(join(tmp.path, 'random-0', 'nowhere'))).toBeNull();
  });
});
