import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../runners/testing';
import { LocalIndex } from './local-index';
import { ReaderPool } from './pool';
import { append } from '../../shared/arrays';

let tmp: ReturnType<typeof tempDir>;
let pool: ReaderPool;
beforeEach(() => {
  tmp = tempDir();
  writeTree(tmp.path, Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`cell_${String(i).padStart(3, '0')}/run.json`, { runner: 'coding-agent', name: `cell_${i}` }])));
  // A worker that says nothing for 1 ms is taken as stuck: a fresh worker's start alone takes longer.
  pool = new ReaderPool(1, 1);
});
afterEach(async () => {
  await pool.close();
  tmp.remove();
});

describe('a read worker that stops answering (a hung network disk)', () => {
  it('fails the job naming what it was doing, and a fresh worker takes over', async () => {
    // The first job searches one folder (the first rows come soon), the next twice as many, and so on.
    await expect(pool.discover(tmp.path)).rejects.toThrow(/^finding cells in \/.*\/cell_000 made no progress for 1 ms \(a hung network filesystem\?\)$/);
    pool.threads.stallMs = 60_000;
    const { cells } = await pool.discover(tmp.path);
    const reads: string[] = [];
    await pool.read(cells, (batch) => append(reads, batch.map((r) => r.cell.name)));
    expect(reads).toHaveLength(300);
  });

  it('shows on its root, which is read once the disk answers again', async () => {
    const index = new LocalIndex(tmp.path, pool, () => undefined, () => undefined, { watch: false, sweepMs: 3_600_000 });
    await index.start();
    const status = index.status('command line');
    expect(status.state).toBe('unreadable');
    expect(status.problems.map((p) => `${p.file}: ${p.message}`)).toEqual([`${tmp.path}: could not be read: finding cells in ${tmp.path}/cell_000 made no progress for 1 ms (a hung network filesystem?)`]);
    pool.threads.stallMs = 60_000;
    await index.sweep();
    expect(index.status('command line')).toMatchObject({ state: 'ok', cellCount: 300, problems: [] });
    await index.close();
  });
});
