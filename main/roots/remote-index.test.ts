// A remote root's index, scheduled as the host's connection and its snapshots have it: the listing comes
// from the real snapshot command, the cells are read for real; the host's connection and a user's scorer
// pick are the test's to set.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonReader, localFs, type CellFs } from '../../runners';
import { readCell, summaryOf } from '../../runners/read';
import { tempDir, writeTree } from '../../runners/testing';
import type { CellSummary } from '../../shared/model';
import type { Presence } from '../../shared/presence';
import type { HostContext } from '../place/context';
import { SnapshotFs, snapshotCommand } from '../ssh/snapshot';
import { LookingFs } from './looked';
import type { RemoteCellReads } from './remote-cell';
import { RemoteIndex } from './remote-index';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
  writeTree(join(tmp.path, 'runs'), {
    'std_a/run.json': { runner: 'coding-agent', run: 'std_a', protocol: { episodes: [0, 1] } },
    'std_a/summary.json': { run: 'std_a', finished: true, planned: [0, 1], episodes: { 0: { status: 'evaluated', success: true } } },
  });
});
afterEach(() => tmp.remove());

/**
 * This machine's folder as an SSH host's root: listed by the snapshot command a host runs; `presence` its
 * connection. Its cells are read for real, each row's name ending in what `pick` is when it is read (as a
 * scorer picked changes an Inspect log's row, and no file).
 */
function host() {
  const state = { presence: 'live' as Presence, pick: 'first', reads: 0 };
  const read = () => ({ fs: localFs, json: new JsonReader(localFs), now: Date.now(), host: 'gpu1' });
  const context = {
    host: 'gpu1',
    connection: () => ({ presence: state.presence, problem: state.presence === 'live' ? null : 'connection lost' }),
    read,
    live: () => false,
    snapshot: async (dir: string, depth: number) => new SnapshotFs(execFileSync('sh', ['-c', snapshotCommand(dir, depth)], { encoding: 'utf8' }), dir, depth, localFs),
  } as Partial<HostContext> as HostContext;
  const reads: RemoteCellReads = {
    async summary(_host, dir, format, root, files: CellFs) {
      if (state.presence !== 'live') throw Object.assign(new Error('gpu1 is reconnecting'), { name: 'HostUnavailableError' });
      state.reads++;
      const looking = new LookingFs(files);
      const looked = looking.begin();
      const cell = await readCell(dir, format, { ...read(), fs: looking, json: new JsonReader(looking) });
      const row = summaryOf(cell, root);
      return { row: { ...row, name: `${row.name} (${state.pick})` }, gone: false, looked };
    },
    forget: () => undefined,
  };
  const root = `gpu1:${join(tmp.path, 'runs')}`;
  const index = new RemoteIndex(root, context, reads, join(tmp.path, 'runs'), () => undefined, () => undefined, { rescanMs: false, watch: false });
  const names = () => index.list().map((c: CellSummary) => c.name);
  return { state, index, names };
}

describe("a remote root's index", () => {
  it('reads again a cell asked to be read as a rescan comes, though the snapshots say none of its files changed', async () => {
    const { state, index, names } = host();
    await index.start();
    expect(names()).toEqual(['std_a (first)']);
    const reads = state.reads;
    // A rescan already queued when the user picks: the scan takes up the ask, its snapshot unchanged.
    const scan = index.refresh();
    state.pick = 'second';
    index.reread(join(tmp.path, 'runs', 'std_a'));
    await scan;
    expect(names()).toEqual(['std_a (second)']);
    expect(state.reads).toBeGreaterThan(reads);
    await index.close();
  });

  it('keeps a cell asked to be read while its host is down asked, and reads it once the host is back', async () => {
    const { state, index, names } = host();
    await index.start();
    const reads = state.reads;
    state.presence = 'reconnecting';
    state.pick = 'second';
    index.reread(join(tmp.path, 'runs', 'std_a'));
    await index.refresh();
    expect(names()).toEqual(['std_a (first)']);
    // Back: its feed's first look is a whole rescan, whose snapshot says what the last one said.
    state.presence = 'live';
    await index.refresh();
    expect(names()).toEqual(['std_a (second)']);
    expect(state.reads).toBeGreaterThan(reads);
    // Read, the ask is done: the next rescan finds the cell unchanged and keeps its row.
    const after = state.reads;
    await index.refresh();
    expect(state.reads).toBe(after);
    await index.close();
  });
});
