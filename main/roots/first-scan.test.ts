import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../runners/testing';
import { firstScan } from './first-scan';
import { ReaderPool } from './pool';
import { append } from '../../shared/arrays';

let pool: ReaderPool;
let tmp: ReturnType<typeof tempDir>;
beforeAll(() => (pool = new ReaderPool(2)));
afterAll(() => pool.close());
beforeEach(() => {
  tmp = tempDir();
  // 32 folders of 10 cells each.
  const cells = Array.from({ length: 320 }, (_, i) => [`batch_${String(Math.floor(i / 10)).padStart(2, '0')}/std_${i}/run.json`, { runner: 'coding-agent', run: `std_${i}` }]);
  writeTree(tmp.path, Object.fromEntries(cells));
});
afterEach(() => tmp.remove());

describe('the first scan of a root', () => {
  it('reads the first folders\' cells while the rest of the root is still searched', async () => {
    const events: string[] = [];
    const reads: Promise<void>[] = [];
    await pool.discover(tmp.path, new Map(), null, (cells) => {
      events.push(`found ${cells.length}`);
      reads.push(pool.read(cells, (batch) => events.push(`read ${batch.length}`)));
    });
    events.push('searched');
    await Promise.all(reads);
    // Each of the two workers searches 1 folder, then 2, 4, 8 and 1 (of its 16): the reads of each few
    // go before its next few, so the first cells are read long before the last folder is searched.
    expect(events.filter((e) => e.startsWith('found'))).toHaveLength(10);
    expect(events.indexOf('read 10')).toBeGreaterThan(-1);
    expect(events.indexOf('read 10')).toBeLessThan(events.indexOf('searched') - 4);
  });

  it('hands over every row once, with how many are read of how many found so far', async () => {
    const progress: { done: number; total: number; searching: boolean }[] = [];
    const rows: string[] = [];
    await firstScan(pool, tmp.path, null, (batch) => append(rows, batch.map((row) => row.name)), (done, total, searching) => progress.push({ done, total, searching }));
    expect(rows).toHaveLength(320);
    expect(new Set(rows).size).toBe(320);
    expect(progress[0]).toEqual({ done: 0, total: 10, searching: true });
    expect(progress.at(-1)).toEqual({ done: 320, total: 320, searching: false });
  });
});
