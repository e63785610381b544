import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { context, tempDir, writeTree } from '../../runners/testing';
import { readCell } from '../../runners/read';
import { closedAfterEach, threadsStarted } from '../testing';
import { slot } from '../roots/pool';
import { SnapshotFs, snapshotCommand } from '../ssh/snapshot';
import { OpenCellReader } from './open-reader';
import { localFs, type CellFs } from '../../runners';
import { compareSides, sideOf } from '../compare/paired';
import { listedForView } from '../../shared/mcnemar';

let tmp: ReturnType<typeof tempDir>;
const readers: OpenCellReader[] = [];
beforeEach(() => {
  tmp = tempDir();
  writeTree(join(tmp.path, 'runs', 'std_a_m_full_default'), {
    'run.json': { runner: 'coding-agent', run: 'std_a_m_full_default', protocol: { episodes: [0, 1] } },
    'summary.json': { run: 'std_a_m_full_default', finished: true, planned: [0, 1], episodes: { 0: { status: 'evaluated', success: true, engaged: true }, 1: { status: 'infra_error', success: null } } },
  });
});
afterEach(async () => {
  await Promise.all(readers.splice(0).map((r) => r.close()));
  tmp.remove();
});
/** A reader whose hosts' files are this machine's, each call counted by host. */
const asked = new Map<string, number>();
const hostFiles = (host: string): CellFs => {
  const count = <T>(value: T) => (asked.set(host, (asked.get(host) ?? 0) + 1), value);
  const gone = () => Promise.reject(Object.assign(new Error('gone is reconnecting'), { name: 'HostUnavailableError' }));
  if (host === 'gone') return { list: gone, stat: gone, read: gone, readFrom: gone, readBytes: gone };
  // A host slow to answer: a JSON file comes 1.5 s after it is asked, longer than the read's stall limit.
  const later = <T>(value: Promise<T>) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 1500));
  if (host === 'slow') return { ...localFs, read: (p, m) => later(localFs.read(p, m)) };
  return { list: (d) => count(localFs.list(d)), stat: (p) => count(localFs.stat(p)), read: (p, m) => count(localFs.read(p, m)), readFrom: (p, at, m) => count(localFs.readFrom(p, at, m)), readBytes: (p, at, m) => count(localFs.readBytes(p, at, m)) };
};
const reader = (options?: ConstructorParameters<typeof OpenCellReader>[1]) => {
  const made = new OpenCellReader(hostFiles, options);
  readers.push(made);
  return made;
};
const startCore = closedAfterEach();

describe('cells open in the window, read off its thread', () => {
  it('reads a local cell in a worker as it reads here, and says what the read looked at', async () => {
    const dir = join(tmp.path, 'runs', 'std_a_m_full_default');
    const { read, looked } = await reader().detail('local', dir, 'coding-agent');
    const here = await readCell(dir, 'coding-agent', context(), { detail: true });
    expect(read.cell.episodes).toEqual(here.cell.episodes);
    expect(read.detail?.episodes).toEqual(here.detail?.episodes);
    expect(looked.files).toContain(join(dir, 'summary.json'));
    expect(asked.size).toBe(0);
  });

  it("reads a host's cell in a worker, its files asked of this thread over the host's connection; a host that dropped says so by name", async () => {
    const dir = join(tmp.path, 'runs', 'std_a_m_full_default');
    const open = reader();
    const { read, looked } = await open.detail('gpu1', dir, 'coding-agent');
    const here = await readCell(dir, 'coding-agent', { ...context(), host: 'gpu1' }, { detail: true });
    expect(read.cell).toEqual(here.cell);
    expect(read.detail?.episodes).toEqual(here.detail?.episodes);
    expect(looked.files).toContain(join(dir, 'summary.json'));
    expect(asked.get('gpu1')).toBeGreaterThan(0);
    await expect(open.detail('gone', dir, 'coding-agent')).rejects.toMatchObject({ name: 'HostUnavailableError', message: 'gone is reconnecting' });
  });

  it("reads a host's root from its scan's snapshot, sent to each worker as it reads its first cell: a root of one cell starts one thread", async () => {
    const runs = join(tmp.path, 'runs');
    // Another cell, read by the other worker.
    const other = ['std_b', 'std_c', 'std_d', 'std_e'].find((name) => slot(`gpu2:${join(runs, name)}`, 2) !== slot(`gpu2:${join(runs, 'std_a_m_full_default')}`, 2)) as string;
    writeTree(join(runs, other), { 'run.json': { runner: 'coding-agent', run: other, protocol: { episodes: [0] } } });
    /** The snapshot as a host's scan takes it, each file call this thread answers from it counted. */
    let calls = 0;
    class Counted extends SnapshotFs {
      override list(dir: string) {
        calls++;
        return super.list(dir);
      }
      override stat(path: string) {
        calls++;
        return super.stat(path);
      }
    }
    const snapshot = new Counted(execFileSync('sh', ['-c', snapshotCommand(runs, 3)], { encoding: 'utf8' }), runs, 3, hostFiles('gpu2'));
    const open = reader();
    const first = await threadsStarted(() => open.summary('gpu2', join(runs, 'std_a_m_full_default'), 'coding-agent', runs, snapshot));
    expect(first).toBe(1);
    const second = await threadsStarted(() => open.summary('gpu2', join(runs, other), 'coding-agent', runs, snapshot));
    expect(second).toBe(1);
    // Each worker held the snapshot: what it lists answered there, not asked of this thread.
    expect(calls).toBe(0);
    const row = (await open.summary('gpu2', join(runs, 'std_a_m_full_default'), 'coding-agent', runs, snapshot)).row;
    expect(row).toMatchObject({ name: 'std_a_m_full_default', format: 'coding-agent' });
  });

  it('a host slow to answer is no stalled read: the stall clock runs only while the worker has the job', async () => {
    const dir = join(tmp.path, 'runs', 'std_a_m_full_default');
    // Long enough for the worker's own part of the read on a busy machine; shorter than one answer.
    const { read } = await reader({ stallMs: 1000 }).detail('slow', dir, 'coding-agent');
    expect(read.cell.episodes).toEqual((await readCell(dir, 'coding-agent', context())).cell.episodes);
    expect(read.cell.problems).toEqual([]);
  });

  it('a read whose worker runs out of its memory is a problem of that cell, and the core answers on', async () => {
    const core = await startCore({ configDir: join(tmp.path, 'config'), transport: 'serve', rescan: false, nvidiaSmi: false, commandLineRoots: [join(tmp.path, 'runs')], openCells: { heapMb: 4 } });
    await core.scanned();
    const [cell] = await core.listCells();
    const detail = await core.openCell((cell as { id: string }).id);
    expect(detail.summary.problems).toContainEqual(expect.objectContaining({ message: expect.stringMatching(/^could not be read: .*(memory|heap)/i) }));
    expect((await core.listRoots())[0]?.cellCount).toBe(1);
  });

  it('pairs two local cells off the thread, as here, and a refusal keeps its kind (CompareError)', async () => {
    writeTree(join(tmp.path, 'runs', 'std_b_m_full_default'), {
      'run.json': { runner: 'coding-agent', run: 'std_b_m_full_default', protocol: { episodes: [0, 1] } },
      'summary.json': { run: 'std_b_m_full_default', finished: true, planned: [0, 1], episodes: { 0: { status: 'evaluated', success: false, engaged: true }, 1: { status: 'evaluated', success: true, engaged: true } } },
    });
    writeTree(join(tmp.path, 'runs', 'evo'), { 'run.json': { runner: 'evopolicygym', config: {}, agent: {} } });
    const core = await startCore({ configDir: join(tmp.path, 'config'), transport: 'serve', rescan: false, nvidiaSmi: false, commandLineRoots: [join(tmp.path, 'runs')] });
    await core.scanned();
    const id = async (name: string) => ((await core.listCells()).find((c) => c.name === name) as { id: string }).id;
    const test = await core.pairedTest(await id('std_a_m_full_default'), await id('std_b_m_full_default'));
    const here = async (name: string) => sideOf(await readCell(join(tmp.path, 'runs', name), 'coding-agent', context()), null, context());
    expect(test).toEqual(listedForView(compareSides(await here('std_a_m_full_default'), await here('std_b_m_full_default'))));
    expect(test).toMatchObject({ ok: true, table: { only_a: 1, only_b: 1 } });
    await expect(core.pairedTest(await id('std_a_m_full_default'), await id('evo'))).rejects.toMatchObject({ name: 'CompareError', message: expect.stringContaining('compare two cells of one format') });
  });
});
