import { appendFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CellsDelta } from '../../shared/model';
import { age, tempDir, writeTree } from '../../runners/testing';
import type { IndexOptions } from './index-options';
import { LocalIndex } from './local-index';
import { ReaderPool } from './pool';

let pool: ReaderPool;
let tmp: ReturnType<typeof tempDir>;
let index: LocalIndex;
let deltas: CellsDelta[];
let statusChanges: number;
beforeAll(() => (pool = new ReaderPool(2)));
afterAll(() => pool.close());
beforeEach(() => {
  tmp = tempDir();
  deltas = [];
  statusChanges = 0;
});
afterEach(async () => {
  await index?.close();
  tmp.remove();
});

const cell = (name: string, episodes: Record<string, object> = {}) => ({
  [`${name}/run.json`]: { runner: 'coding-agent', run: name, protocol: { episodes: [0, 1, 2] } },
  [`${name}/summary.json`]: { run: name, planned: [0, 1, 2], episodes, aggregate: {} },
});
const ok = { status: 'evaluated', success: true, engaged: true };

async function open(options: IndexOptions): Promise<LocalIndex> {
  index = new LocalIndex(tmp.path, pool, (d) => deltas.push(d), () => statusChanges++, options);
  await index.start();
  return index;
}
const names = () => index.list().map((c) => c.name);
const row = (name: string) => index.list().find((c) => c.name === name);

describe('the index of a local runs root', () => {
  it('reads every cell once, sends the rows as added, and each trajectory\'s malformed lines as the row\'s problems', async () => {
    writeTree(tmp.path, { ...cell('a'), ...cell('b'), 'b/episodes/0000/trajectory.jsonl': '{"seq": 0, "ev": "episode_start"}\n{"seq": 1, "ev"\n' });
    await open({ watch: false });
    expect(deltas.flatMap((d) => d.added.map((c) => c.name)).sort()).toEqual(['a', 'b']);
    expect(row('b')?.problems).toEqual([{ file: 'episodes/0000/trajectory.jsonl', line: 2, message: expect.stringContaining('malformed JSON'), severity: 'error' }]);
    expect(index.status('settings')).toMatchObject({ state: 'ok', cellCount: 2, progress: null });
  });

  it('a change the watcher missed is found by the sweep, by stats alone', async () => {
    writeTree(tmp.path, cell('a'));
    await open({ watch: false });
    writeTree(tmp.path, cell('a', { '0': ok }));
    await index.sweep();
    expect(row('a')?.episodes.ended).toBe(1);
    expect(deltas.at(-1)).toMatchObject({ added: [], removed: [], changed: [expect.objectContaining({ name: 'a', success_rate: 1 })] });
    // Nothing changed: the next sweep sends nothing.
    const sent = deltas.length;
    await index.sweep();
    expect(deltas.length).toBe(sent);
  });

  it('a file that was not there appearing (DRAIN) is found by the sweep: the folder it is in changed', async () => {
    writeTree(tmp.path, cell('a'));
    await open({ watch: false });
    expect(row('a')?.state).toBe('running');
    writeFileSync(join(tmp.path, 'a', 'DRAIN'), '');
    await index.sweep();
    expect(row('a')?.state).toBe('draining');
  });

  it('a file rewritten in place is read again; a new trajectory line with a bad line shows up in the row', async () => {
    writeTree(tmp.path, { ...cell('a'), 'a/episodes/0000/trajectory.jsonl': '{"seq": 0}\n' });
    await open({ watch: false });
    writeFileSync(join(tmp.path, 'a', 'summary.json'), JSON.stringify({ run: 'a', planned: [0, 1, 2], episodes: { '0': { ...ok, success: false } }, aggregate: {} }));
    appendFileSync(join(tmp.path, 'a', 'episodes', '0000', 'trajectory.jsonl'), 'not json\n');
    await index.sweep();
    expect(row('a')).toMatchObject({ success_rate: 0, problems: [expect.objectContaining({ line: 2 })] });
  });

  it('the watcher sends a changed cell as one row, a new cell as added, a removed one as removed', async () => {
    writeTree(tmp.path, { ...cell('a'), ...cell('b') });
    await open({ sweepMs: 3_600_000 });
    deltas = [];
    writeTree(tmp.path, cell('a', { '0': ok, '1': ok }));
    await expect.poll(() => row('a')?.episodes.ended).toBe(2);
    expect(deltas.flatMap((d) => d.changed.map((c) => c.name))).toEqual(['a']);
    writeTree(tmp.path, cell('c'));
    await expect.poll(names).toEqual(['a', 'b', 'c']);
    rmSync(join(tmp.path, 'b'), { recursive: true });
    await expect.poll(names).toEqual(['a', 'c']);
    expect(deltas.flatMap((d) => d.removed)).toEqual([`local:${join(tmp.path, 'b')}`]);
  });

  it('a watched change to a log looks again at that log; one the watch missed, at the next sweep', async () => {
    writeTree(tmp.path, { ...cell('a'), 'a/episodes/0000/trajectory.jsonl': '{"seq": 0}\n', 'a/episodes/0001/trajectory.jsonl': '{"seq": 0}\n' });
    // A watch that misses what is written in episode 0000's folder, as a network file system's may.
    const osWatch = ((path: string, listener: (event: string, name: string | null) => void) =>
      watch(path, (event, name) => path.endsWith('0000') || listener(event, name))) as unknown as typeof watch;
    await open({ sweepMs: 3_600_000, osWatch });
    const lines = () => (row('a')?.problems ?? []).map((p) => `${p.file}:${p.line}`);
    appendFileSync(join(tmp.path, 'a', 'episodes', '0001', 'trajectory.jsonl'), 'not json\n');
    await expect.poll(lines).toEqual(['episodes/0001/trajectory.jsonl:2']);
    appendFileSync(join(tmp.path, 'a', 'episodes', '0000', 'trajectory.jsonl'), 'not json\n');
    appendFileSync(join(tmp.path, 'a', 'episodes', '0001', 'trajectory.jsonl'), 'not json\n');
    await expect.poll(lines).toContain('episodes/0001/trajectory.jsonl:3');
    await index.sweep();
    expect(lines()).toEqual(['episodes/0000/trajectory.jsonl:2', 'episodes/0001/trajectory.jsonl:2', 'episodes/0001/trajectory.jsonl:3']);
  });

  it('when the OS cannot watch more folders, says so once with the limit\'s name and lets the sweep find changes', async () => {
    writeTree(tmp.path, { ...cell('a'), 'a/episodes/0000/trajectory.jsonl': '' });
    // An OS that allows two watches, failing the third as Linux does when fs.inotify.max_user_watches is reached.
    let watches = 0;
    const osWatch = ((...args: Parameters<typeof watch>) => {
      if (++watches > 2) throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached, watch'), { code: 'ENOSPC' });
      return watch(...args);
    }) as typeof watch;
    await open({ sweepMs: 200, osWatch });
    expect(index.status('settings').problems).toEqual([
      expect.objectContaining({ file: tmp.path, severity: 'warning', message: expect.stringContaining('fs.inotify.max_user_watches'), tip: expect.stringContaining('sysctl') }),
    ]);
    writeTree(tmp.path, cell('a', { '0': ok }));
    await expect.poll(() => row('a')?.episodes.ended).toBe(1);
  });

  it('a running cell whose files go quiet for the stale time turns stale, though no file changed', async () => {
    writeTree(tmp.path, cell('std_quiet'));
    // Ten minutes less a second and a half ago: running now, stale in a moment.
    age(join(tmp.path, 'std_quiet'), ['run.json', 'summary.json', '.'], 10 * 60_000 - 1500);
    await open({ watch: false, sweepMs: 3_600_000, ageCheckMs: 200 });
    expect(row('std_quiet')?.state).toBe('running');
    await expect.poll(() => row('std_quiet')?.state).toBe('stale');
    expect(deltas.at(-1)?.changed.map((c) => [c.name, c.state])).toEqual([['std_quiet', 'stale']]);
  });

  it('a root that does not exist yet is scanned once it appears', async () => {
    rmSync(tmp.path, { recursive: true });
    await open({ watch: false, sweepMs: 100 });
    expect(index.status('settings').state).toBe('missing');
    writeTree(tmp.path, cell('late'));
    await expect.poll(names).toEqual(['late']);
    expect(index.status('settings').state).toBe('ok');
  });
});
