import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { age, tempDir, writeTree } from '../../runners/testing';
import { runCli } from '../cli/run';
import { capture } from '../cli/testing';
import { IndexCache } from './index-cache';
import { LocalIndex } from './local-index';
import type { CellSummary } from '../../shared/model';
import { largest } from '../../shared/arrays';
import { ReaderPool } from './pool';

let pool: ReaderPool;
let tmp: ReturnType<typeof tempDir>;
let root: string;
let cacheDir: string;
beforeAll(() => (pool = new ReaderPool(2)));
afterAll(() => pool.close());
beforeEach(() => {
  tmp = tempDir();
  root = join(tmp.path, 'runs');
  cacheDir = join(tmp.path, 'data');
  for (const name of ['std_a', 'std_b', 'std_c']) {
    writeTree(root, {
      [`${name}/run.json`]: { runner: 'coding-agent', run: name, protocol: { episodes: [0, 1] } },
      [`${name}/summary.json`]: { planned: [0, 1], episodes: { 0: { status: 'evaluated', success: true } }, finished: true },
    });
  }
});
afterEach(() => tmp.remove());
// Whole seconds, so that putting an mtime back (forge) restores it exactly.
beforeEach(() => {
  const when = Math.floor(Date.now() / 1000) - 5;
  for (const name of ['std_a', 'std_b', 'std_c']) for (const file of ['run.json', 'summary.json']) utimesSync(join(root, name, file), when, when);
});

/** Rewrites a file with other bytes of the same length and puts its mtime back: only a parse can tell. */
function forge(file: string, text: string): void {
  const before = statSync(file);
  expect(Buffer.byteLength(text)).toBe(before.size);
  writeFileSync(file, text);
  utimesSync(file, before.atime, before.mtime);
}

async function scan(workers = pool): Promise<Map<string, number | null>> {
  const index = new LocalIndex(root, workers, () => undefined, () => undefined, { watch: false, sweepMs: 3_600_000, cacheDir });
  await index.start();
  await index.close();
  return new Map(index.list().map((c) => [c.name, c.success_rate]));
}

const summary = (success: boolean) => JSON.stringify({ planned: [0, 1], episodes: { 0: { status: 'evaluated', success } }, finished: true });
/** A summary that scores 0 (a timed-out episode), exactly as long as the one written: a parse says 0, the cache 1. */
const sameLengthZero = () => JSON.stringify({ planned: [0, 1], episodes: { 0: { status: 'timeout', success: true } }, finished: true }).padEnd(summary(true).length, ' ');

describe('the index cache in the data folder', () => {
  it('a cell unchanged by size and mtime is not parsed at the next start; a changed one is', async () => {
    expect(await scan()).toEqual(new Map([['std_a', 1], ['std_b', 1], ['std_c', 1]]));
    // The head, the rows, and what each of the two workers' reads looked at and the units they found (the board's).
    expect(readdirSync(join(cacheDir, 'index')).map((f) => f.replace(/^[0-9a-f]+/, '')).sort()).toEqual(['.head.json', '.looked.0.json', '.looked.0.units.json', '.looked.1.json', '.looked.1.units.json', '.rows.json']);
    // Same size, same mtime: the cache is believed. A grown file is read again.
    forge(join(root, 'std_a', 'summary.json'), sameLengthZero());
    writeFileSync(join(root, 'std_b', 'summary.json'), summary(false));
    writeTree(root, { 'std_d/run.json': { runner: 'coding-agent', run: 'std_d' } });
    expect(await scan()).toEqual(new Map([['std_a', 1], ['std_b', 0], ['std_c', 1], ['std_d', null]]));
  });

  it("keeps the units of cells taken from the cache through the next save, though nothing asked for them", async () => {
    const saved = () =>
      Object.assign({}, ...readdirSync(join(cacheDir, 'index')).filter((f) => f.endsWith('.units.json')).map((f) => (JSON.parse(readFileSync(join(cacheDir, 'index', f), 'utf8')) as { units: Record<string, string> }).units)) as Record<string, string>;
    await scan();
    const first = saved();
    expect(Object.keys(first).sort()).toEqual(['std_a', 'std_b', 'std_c'].map((name) => join(root, name)));
    // The next start (workers of its own, that read nothing before) reads std_b alone, which grew, and
    // saves again: the others' units are still there.
    writeFileSync(join(root, 'std_b', 'summary.json'), summary(false));
    const fresh = new ReaderPool(2);
    await scan(fresh).finally(() => fresh.close());
    const second = saved();
    expect(Object.keys(second).sort()).toEqual(Object.keys(first).sort());
    expect(second[join(root, 'std_a')]).toBe(first[join(root, 'std_a')]);
    expect(second[join(root, 'std_b')]).not.toBe(first[join(root, 'std_b')]);
  });

  it('a rollouts collection that is a file in the root itself is not parsed at the next start while unchanged; grown, it is', async () => {
    const rollouts = join(root, 'math.jsonl');
    const row = (task: number, reward: number) => `${JSON.stringify({ _ng_task_index: task, _ng_rollout_index: 0, agent_ref: { name: 'a' }, response: { output: [] }, reward })}\n`;
    writeFileSync(rollouts, row(0, 1) + row(1, 1));
    const when = Math.floor(Date.now() / 1000) - 5;
    utimesSync(rollouts, when, when);
    expect((await scan()).get('math')).toBe(1);
    // Its second reward forged to 0, same size and mtime: the cache is believed, on workers that read nothing before.
    forge(rollouts, row(0, 1) + row(1, 0));
    const fresh = () => {
      const workers = new ReaderPool(2);
      return scan(workers).finally(() => workers.close());
    };
    expect((await fresh()).get('math')).toBe(1);
    // Grown: read whole on the next start, the forged reward with it.
    writeFileSync(rollouts, row(0, 1) + row(1, 0) + row(2, 0));
    expect((await fresh()).get('math')).toBeCloseTo(1 / 3);
  });

  it('a cached cell where a file appears that was not there (DRAIN) is read again', async () => {
    writeFileSync(join(root, 'std_a', 'summary.json'), JSON.stringify({ planned: [0, 1], episodes: {}, finished: false }));
    const state = async () => {
      const index = new LocalIndex(root, pool, () => undefined, () => undefined, { watch: false, sweepMs: 3_600_000, cacheDir });
      await index.start();
      await index.close();
      return index.list().find((c) => c.name === 'std_a')?.state;
    };
    expect(await state()).toBe('running');
    writeFileSync(join(root, 'std_a', 'DRAIN'), '');
    expect(await state()).toBe('draining');
  });

  it('a cached running cell gone quiet for the stale time is read again', async () => {
    writeFileSync(join(root, 'std_a', 'summary.json'), JSON.stringify({ planned: [0, 1], episodes: {}, finished: false }));
    age(join(root, 'std_a'), ['run.json', 'summary.json', '.'], 10 * 60_000 - 3000);
    const index = new LocalIndex(root, pool, () => undefined, () => undefined, { watch: false, sweepMs: 3_600_000, ageCheckMs: 3_600_000, cacheDir });
    await index.start();
    expect(index.list().find((c) => c.name === 'std_a')?.state).toBe('running');
    await index.close();
    await new Promise((r) => setTimeout(r, 3500));
    const again = new LocalIndex(root, pool, () => undefined, () => undefined, { watch: false, sweepMs: 3_600_000, ageCheckMs: 3_600_000, cacheDir });
    await again.start();
    expect(again.list().find((c) => c.name === 'std_a')?.state).toBe('stale');
    await again.close();
  });

  it('a cache that other reading code saved (another build or version), or whose rows file is cut short, is not used', async () => {
    const file = (suffix: string) => join(cacheDir, 'index', readdirSync(join(cacheDir, 'index')).find((f) => f.endsWith(suffix)) as string);
    await scan();
    forge(join(root, 'std_a', 'summary.json'), sameLengthZero());
    const head = JSON.parse(readFileSync(file('.head.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(file('.head.json'), JSON.stringify({ ...head, readers: 'other code' }));
    expect((await scan()).get('std_a')).toBe(0);
    forge(join(root, 'std_b', 'summary.json'), sameLengthZero());
    // Its own stamp, but its last row cut short.
    const rows = readFileSync(file('.rows.json'), 'utf8');
    writeFileSync(file('.rows.json'), rows.slice(0, -20));
    expect((await scan()).get('std_b')).toBe(0);
  });

  it('leaves no temporary file where a worker cannot write its part: that part is only not kept', async () => {
    const index = join(cacheDir, 'index');
    await scan();
    const parts = readdirSync(index).filter((name) => /\.looked\.\d\.json$/.test(name));
    expect(parts).toHaveLength(2);
    for (const part of parts) {
      rmSync(join(index, part));
      mkdirSync(join(index, part));
    }
    forge(join(root, 'std_a', 'summary.json'), sameLengthZero());
    expect((await scan()).get('std_a')).toBe(0);
    expect(readdirSync(index).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('parses its rows a few hundred at a turn of the event loop: the thread that answers the window is never held by all of them', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ path: join(root, `cell_${i}`), name: `cell_${i}` }) as unknown as CellSummary);
    await (await IndexCache.open(cacheDir, root)).save(rows, async () => 0);
    // Each JSON.parse call marked with the turn of the loop it ran in.
    let turn = 0;
    let reading = true;
    const spin = () => reading && (turn++, setImmediate(spin));
    const parsedIn = new Set<number>();
    const parse = JSON.parse;
    const spy = vi.spyOn(JSON, 'parse').mockImplementation((text, reviver) => (parsedIn.add(turn), parse(text, reviver)));
    try {
      setImmediate(spin);
      const read = await (await IndexCache.open(cacheDir, root)).rows;
      expect(read.size).toBe(20_000);
      expect(read.get(join(root, 'cell_19999'))?.name).toBe('cell_19999');
    } finally {
      reading = false;
      spy.mockRestore();
    }
    expect(parsedIn.size).toBeGreaterThanOrEqual(40);
  });

  it('hands its cached rows to the window a few hundred at a time: one event of thousands held the thread that answers it', async () => {
    const cells = Object.fromEntries(
      Array.from({ length: 2_000 }, (_, i) => [
        [`many/std_${i}/run.json`, { runner: 'coding-agent', run: `std_${i}`, protocol: { episodes: [0, 1] } }],
        [`many/std_${i}/summary.json`, { planned: [0, 1], episodes: { 0: { status: 'evaluated', success: true } }, finished: true }],
      ]).flat(),
    );
    writeTree(root, cells);
    await scan();
    const added: number[] = [];
    const index = new LocalIndex(root, pool, (delta) => added.push(delta.added.length), () => undefined, { watch: false, sweepMs: 3_600_000, cacheDir });
    await index.start();
    await index.close();
    expect(added.reduce((sum, n) => sum + n, 0)).toBe(2_003);
    // A few hundred each (ROWS_A_TURN, and the rows read meanwhile), where all came in one.
    expect(largest(added, 0)).toBeLessThan(1_000);
  });

  it('the built app keeps its cache for the code it reads with, not for its version alone', () => {
    // A build from a later commit of the same version reads the cells again, with its own rules.
    const data = join(tmp.path, 'built');
    execFileSync(process.execPath, [join(import.meta.dirname, '..', '..', 'out', 'cli.mjs'), 'status', '--json', root], { env: { ...process.env, XDG_DATA_HOME: data } });
    const index = join(data, 'cellwatch', 'index');
    const head = JSON.parse(readFileSync(join(index, readdirSync(index).find((f) => f.endsWith('.head.json')) as string), 'utf8')) as { readers: string };
    expect(head.readers).toMatch(/^[0-9a-f]{16}$/);
  });

  it('`status --json` reads through the same cache, and says what changed', async () => {
    const status = async () => {
      const { io, out } = capture();
      expect(await runCli(['status', '--json', root], io)).toBe(0);
      return (JSON.parse(out.join('\n')) as { cells: { name: string; success_rate: number | null }[] }).cells.map((c) => [c.name, c.success_rate]);
    };
    process.env.XDG_DATA_HOME = cacheDir;
    try {
      expect(await status()).toEqual([['std_a', 1], ['std_b', 1], ['std_c', 1]]);
      forge(join(root, 'std_a', 'summary.json'), sameLengthZero());
      writeFileSync(join(root, 'std_b', 'summary.json'), summary(false));
      expect(await status()).toEqual([['std_a', 1], ['std_b', 0], ['std_c', 1]]);
    } finally {
      delete process.env.XDG_DATA_HOME;
    }
  });
});
