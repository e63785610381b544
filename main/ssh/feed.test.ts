// A host's change feed over a real sshd: changes reach the window as they happen, with inotifywait or
// without it, across dropped connections, and one host that hangs delays no other.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { CellDelta } from '../../shared/cell-detail';
import type { CellsDelta } from '../../shared/model';
import { jsonl, tempDir, writeTree } from '../../runners/testing';
import { createCore, type Core } from '../core';
import { binWithout, startSshd, type TestSshd } from './testing';

const saved = process.env.HOME;
let tmp: ReturnType<typeof tempDir> | undefined;
let sshd: TestSshd | undefined;
let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  await sshd?.stop();
  tmp?.remove();
  process.env.HOME = saved;
  core = sshd = tmp = undefined;
});

function codingCell(dir: string, episodes = 1): void {
  writeTree(dir, {
    'run.json': { runner: 'coding-agent', protocol: { episodes: Array.from({ length: episodes }, (_, i) => i) } },
    'episodes/0000/trajectory.jsonl': '',
  });
}

/** A core watching `testhost:<tmp>/runs`, with no periodic rescan: only the feed tells of changes. */
async function watched(env: Record<string, string> = {}): Promise<{ core: Core; runs: string; cell: string; id: string }> {
  sshd = await startSshd({ env, trusted: true });
  tmp = tempDir();
  process.env.HOME = sshd.home;
  const runs = join(tmp.path, 'runs');
  const cell = join(runs, 'std_a_b_c_d');
  codingCell(cell);
  core = await createCore({ configDir: join(tmp.path, 'config'), dataDir: join(tmp.path, 'data'), transport: 'serve', commandLineRoots: [`testhost:${runs}`], rescan: false, nvidiaSmi: false, remoteNvidiaSmi: '/bin/false' });
  const id = `testhost:${cell}`;
  await expect.poll(async () => (await core?.listCells())?.map((c) => c.id)).toEqual([id]);
  return { core, runs, cell, id };
}

const feedOf = async (c: Core) => (await c.listHosts()).find((h) => h.alias === 'testhost')?.feed;

/** Appends to a cell's trajectory and opens its stream; the events that arrive after. */
async function streamed(c: Core, id: string): Promise<number[]> {
  const got: number[] = [];
  c.events.on('cellChanged', (delta: CellDelta) => delta.cellId === id && delta.events?.forEach((e) => got.push(e.fields.n as number)));
  await c.openCell(id);
  await c.openStream(id, '0');
  return got;
}

const line = (n: number) => jsonl([{ seq: n, ev: 'tool_call', n }]);

describe("a host's change feed", () => {
  it('with inotifywait: an appended line, a changed file and a new cell reach the window through the feed, no poll, no rescan', async () => {
    const { core: c, runs, cell, id } = await watched();
    await expect.poll(() => feedOf(c)).toMatchObject({ mode: 'inotify', state: 'live' });
    const got = await streamed(c, id);
    appendFileSync(join(cell, 'episodes', '0000', 'trajectory.jsonl'), line(1));
    await expect.poll(() => got).toEqual([1]);

    const rows: CellsDelta[] = [];
    c.events.on('cellsChanged', (delta: CellsDelta) => rows.push(delta));
    writeFileSync(join(cell, 'summary.json'), JSON.stringify({ finished: true }));
    // The newest row: the line appended above may still bump the row's last change (state running) after this listener is on.
    await expect.poll(() => rows.flatMap((d) => d.changed).findLast((row) => row.id === id)?.state).toBe('finished');
    codingCell(join(runs, 'std_new_cell_x_y'));
    await expect.poll(() => rows.flatMap((d) => d.added).map((row) => row.name)).toContain('std_new_cell_x_y');
    expect(await feedOf(c)).toMatchObject({ state: 'live' });
  });

  it("without inotifywait, python3's inotify through ctypes: a line, a new episode's folder and a new cell, pushed", async () => {
    const bin = binWithout(['inotifywait']);
    try {
      const { core: c, runs, cell, id } = await watched({ PATH: bin.path });
      await expect.poll(() => feedOf(c)).toMatchObject({ mode: 'python', state: 'live' });
      const got = await streamed(c, id);
      appendFileSync(join(cell, 'episodes', '0000', 'trajectory.jsonl'), line(1));
      await expect.poll(() => got).toEqual([1]);
      // A folder made after the start is watched as it appears: a file written in it at once is told too.
      const rows: CellsDelta[] = [];
      c.events.on('cellsChanged', (delta: CellsDelta) => rows.push(delta));
      writeTree(join(cell, 'episodes', '0001'), { 'trajectory.jsonl': line(2) });
      await expect.poll(() => rows.flatMap((d) => d.changed).findLast((row) => row.id === id)?.episodes.ended).toBeDefined();
      codingCell(join(runs, 'std_new_cell_x_y'));
      await expect.poll(() => rows.flatMap((d) => d.added).map((row) => row.name)).toContain('std_new_cell_x_y');
    } finally {
      bin.remove();
    }
  });

  it('without inotifywait or a working python3 on the host: a find loop that sends only differences', async () => {
    const bin = binWithout(['inotifywait', 'python3']);
    try {
      // A login shell may put a python3 of its own on the PATH (pyenv): one that cannot start stands for none.
      const { core: c, cell, id } = await watched({ PATH: bin.path, PYTHONHOME: '/nonexistent' });
      await expect.poll(() => feedOf(c)).toMatchObject({ mode: 'find', state: 'live' });
      const got = await streamed(c, id);
      appendFileSync(join(cell, 'episodes', '0000', 'trajectory.jsonl'), line(1) + line(2));
      await expect.poll(() => got).toEqual([1, 2]);
    } finally {
      bin.remove();
    }
  });

  it('delivers every line once and in order across 40 dropped connections while the file grows', async () => {
    const { core: c, cell, id } = await watched();
    const got = await streamed(c, id);
    const trajectory = join(cell, 'episodes', '0000', 'trajectory.jsonl');
    let drops = 0;
    let was = 'connected';
    c.events.on('hostsChanged', (hosts: { state: string }[]) => {
      const now = hosts[0]?.state ?? was;
      if (was === 'connected' && now !== 'connected') drops++;
      was = now;
    });
    let n = 0;
    // Forty: each drop is one more reconnect, one more resume from the offset read; a hundred took 28 s of the suite.
    for (let cut = 0; cut < 40; cut++) {
      await expect.poll(async () => (await c.listHosts())[0]?.state, { interval: 10 }).toBe('connected');
      appendFileSync(trajectory, line(n++) + line(n++));
      sshd?.cutSessions();
      appendFileSync(trajectory, line(n++));
      // The drop is seen before the next round: each round is one more lost connection.
      await expect.poll(() => drops, { interval: 5 }).toBe(cut + 1);
    }
    await expect.poll(() => got.length, { timeout: 20_000 }).toBe(n);
    expect(got).toEqual(Array.from({ length: n }, (_, i) => i));
  }, 90_000);
});

describe('hosts connect in parallel', () => {
  let silent: Server | undefined;
  const sockets: Socket[] = [];
  afterAll(() => {
    sockets.forEach((s) => s.destroy());
    silent?.close();
  });

  it('a host that accepts TCP but never answers SSH delays no other host', async () => {
    silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent?.listen(0, '127.0.0.1', () => resolve()));
    const port = (silent.address() as { port: number }).port;
    sshd = await startSshd({ trusted: true });
    tmp = tempDir();
    process.env.HOME = sshd.home;
    appendFileSync(join(sshd.home, '.ssh', 'config'), `Host silent\n  HostName 127.0.0.1\n  Port ${port}\n  User nobody\n`);
    const runs = join(tmp.path, 'runs');
    mkdirSync(runs);
    codingCell(join(runs, 'std_a_b_c_d'));
    const started = Date.now();
    core = await createCore({ configDir: join(tmp.path, 'config'), dataDir: join(tmp.path, 'data'), transport: 'serve', commandLineRoots: ['silent:/srv/runs', `testhost:${runs}`], rescan: false, nvidiaSmi: false, remoteNvidiaSmi: '/bin/false' });
    await expect.poll(async () => (await core?.listCells())?.length).toBe(1);
    // Listed while the silent host's handshake still waits for its 10 s timeout.
    expect(Date.now() - started).toBeLessThan(8000);
    expect((await core.listHosts()).find((h) => h.alias === 'silent')?.state).toBe('connecting');
  });
});
