import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../runners/testing';
import { LocalIndex } from './local-index';
import { workersScript } from './worker-script';
import { ReaderPool } from './pool';
import { basename, join } from 'node:path';
import { utimesSync, writeFileSync } from 'node:fs';
import { append } from '../../shared/arrays';
import { compareTable, comparisonsOf, type BoardEntry } from '../../shared/board-comparisons';
import { encodeUnits } from '../../shared/units';
import type { Found } from '../scan';
import { threadsStarted } from '../testing';

let tmp: ReturnType<typeof tempDir>;
let pool: ReaderPool;
beforeEach(() => {
  tmp = tempDir();
  writeTree(tmp.path, Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`cell_${String(i).padStart(3, '0')}/run.json`, { runner: 'coding-agent', name: `cell_${i}` }])));
  // A job whose worker says nothing for 1 ms is taken as stuck: finding cells in a few folders takes longer.
  pool = new ReaderPool(1, 1);
});
afterEach(async () => {
  await pool.close();
  tmp.remove();
});

describe('the read workers, each started at its first job', () => {
  it('read one cell on one thread, cache and all, and a root of many on every one', async () => {
    const cacheDir = tempDir();
    const four = new ReaderPool(4);
    // Run from the source, the workers' script is bundled first, once a process, on a thread of esbuild's.
    workersScript();
    try {
      const cell = join(tmp.path, 'cell_007');
      const one = new LocalIndex(cell, four, () => undefined, () => undefined, { watch: false, cacheDir: cacheDir.path });
      expect(await threadsStarted(() => one.start())).toBe(1);
      expect(one.list().map((row) => row.name)).toEqual(['cell_007']);
      await one.close();
      const all = new LocalIndex(tmp.path, four, () => undefined, () => undefined, { watch: false, cacheDir: cacheDir.path });
      // The three it had not started: the one that read the cell reads its share again.
      expect(await threadsStarted(() => all.start())).toBe(3);
      expect(all.list()).toHaveLength(300);
      await all.close();
    } finally {
      await four.close();
      cacheDir.remove();
    }
  });
});

describe('a read worker that stops answering (a hung network disk)', () => {
  it('fails the job naming what it was doing, and a fresh worker takes over', async () => {
    // The first job searches one folder (the first rows come soon), the next twice as many, and so on.
    await expect(pool.discover(tmp.path)).rejects.toThrow(/^finding cells in (\/.*\/cell_000|\d+ folders \(\/.*\/cell_\d+, \.\.\.\)) made no progress for 1 ms \(a hung network filesystem\?\)$/);
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
    expect(status.problems.map((p) => `${p.file}: ${p.message}`)).toEqual([expect.stringMatching(/: could not be read: (finding cells in|reading) .* made no progress for 1 ms \(a hung network filesystem\?\)$/)]);
    expect(status.problems[0]?.file).toBe(tmp.path);
    pool.threads.stallMs = 60_000;
    await index.sweep();
    expect(index.status('command line')).toMatchObject({ state: 'ok', cellCount: 300, problems: [] });
    await index.close();
  });
});

describe("the board's comparison, worked out in one worker", () => {
  let board: ReturnType<typeof tempDir>;
  /** 40 cells, 2 harnesses x 20 models, 30 episodes each, their outcomes as each cell's units encode them. */
  const units = new Map<string, string>();
  beforeEach(() => {
    board = tempDir();
    units.clear();
    for (let h = 0; h < 2; h++)
      for (let m = 0; m < 20; m++) {
        const outcomes = Array.from({ length: 30 }, (_, i) => (i * 7 + h * 3 + m * 5) % 11 < 3 + m / 4);
        const episodes = Object.fromEntries(outcomes.map((success, i) => [String(i), { status: 'evaluated', success, engaged: true }]));
        writeTree(join(board.path, `h${h}_m${m}`), {
          'run.json': { runner: 'coding-agent', run: `h${h}_m${m}`, cell: { harness: `h${h}`, model: `m${m}`, condition: 'bare', effort: 'default' } },
          'summary.json': { run: `h${h}_m${m}`, finished: true, planned: outcomes.map((_, i) => i), episodes },
        });
        units.set(join(board.path, `h${h}_m${m}`), encodeUnits(outcomes.map((success, i) => ({ id: String(i), status: 'evaluated', success, scored: true }))));
      }
  });
  afterEach(() => board.remove());

  const entriesOf = (cells: Found[], withUnits: boolean): BoardEntry[] =>
    cells.map(({ dir }) => ({ path: dir, boardName: 'b', labels: { harness: basename(dir).split('_')[0] as string, model: basename(dir).split('_')[1] as string, condition: 'bare', effort: 'default' }, units: withUnits ? (units.get(dir) as string) : '' }));

  it("has each worker send the units of the cells it read: the table is the one their units give", async () => {
    const two = new ReaderPool(2);
    try {
      const { cells } = await two.discover(board.path);
      await two.read(cells, () => undefined);
      const table = await two.compare(entriesOf(cells, false), cells);
      expect(comparisonsOf(table)).toEqual(comparisonsOf(compareTable(entriesOf(cells, true))));
      // Every pair of one harness (190 each) and every model's two harnesses (20).
      expect(table.a).toHaveLength(2 * 190 + 20);
    } finally {
      await two.close();
    }
  });

  it('fails, naming what it was doing, when its workers stop answering; the next comparison reads the cells', async () => {
    const cells = [...units.keys()].map((dir): Found => ({ dir, format: 'coding-agent' }));
    // The pool's fresh worker takes longer than 1 ms to start: each job is taken as stuck.
    await expect(pool.compare(entriesOf(cells, false), cells)).rejects.toThrow(/^(comparing the 40 cells on the board|reading the board's units of 40 folders \(.*\)) made no progress for 1 ms/);
    pool.threads.stallMs = 60_000;
    expect(comparisonsOf(await pool.compare(entriesOf(cells, false), cells))).toEqual(comparisonsOf(compareTable(entriesOf(cells, true))));
  });
});

describe('a cell whose folder changes between its discovery and its read', () => {
  it("is read as its folder is then: the discovery's listing says what is not there only while the folder is unchanged", async () => {
    const root = tempDir();
    const one = new ReaderPool(1);
    try {
      const summary = { run: 'x', finished: false, planned: [0, 1], episodes: { '0': { status: 'evaluated', success: true } } };
      for (const name of ['draining', 'running']) writeTree(join(root.path, name), { 'run.json': { runner: 'coding-agent', run: name, protocol: { episodes: [0, 1] } }, 'summary.json': summary });
      const hourAgo = new Date(Date.now() - 3_600_000);
      for (const name of ['draining', 'running']) utimesSync(join(root.path, name), hourAgo, hourAgo);
      const states = new Map<string, string>();
      await one.discover(root.path, new Map(), null, async (cells) => {
        // After the worker listed the cells, before it reads them: one is told to drain.
        writeFileSync(join(root.path, 'draining', 'DRAIN'), '');
        await one.read(cells, (reads) => reads.forEach((r) => states.set(r.cell.name, r.cell.state)));
      });
      expect(Object.fromEntries(states)).toEqual({ draining: 'draining', running: 'running' });
    } finally {
      await one.close();
      root.remove();
    }
  });
});
