import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { copyInstantDemo } from '../../runners/demo/testing';
import { age, inspectLog, jsonl, restoreEnv, tempDir, writeTree } from '../../runners/testing';
import { runCli } from '../cli/run';
import { startSshd, type TestSshd } from './testing';
import { capture } from '../cli/testing';
import { createCore } from '../core';

type LogSpec = Parameters<typeof inspectLog>[0];

/**
 * Another way to the test sshd: a TCP relay on a port of its own, reached as `alias` (its host key known), that
 * relays nothing of a connection until `hold` resolves, and tells `onConnection` of each as it comes.
 */
async function relayTo(server: TestSshd, alias: string, hold: Promise<void>, onConnection = () => undefined as void) {
  const sockets = new Set<Socket>();
  const relay = createServer((socket) => {
    sockets.add(socket);
    onConnection();
    void hold.then(() => {
      const upstream = connect(server.port, '127.0.0.1');
      sockets.add(upstream);
      for (const side of [socket, upstream]) side.on('error', () => (socket.destroy(), upstream.destroy()));
      socket.pipe(upstream).pipe(socket);
    });
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const port = (relay.address() as { port: number }).port;
  appendFileSync(join(server.home, '.ssh', 'config'), `Host ${alias}\n  HostName 127.0.0.1\n  Port ${port}\n  IdentityFile ~/.ssh/id_ed25519\n`);
  appendFileSync(join(server.home, '.ssh', 'known_hosts'), `${server.hostKeyLine.replace(`:${server.port} `, `:${port} `)}\n`);
  return () => new Promise<void>((resolve) => (sockets.forEach((s) => s.destroy()), relay.close(() => resolve())));
}

let sshd: TestSshd;
let tmp: ReturnType<typeof tempDir>;
const saved = { ...process.env };

beforeAll(async () => {
  sshd = await startSshd({ trusted: true });
  tmp = tempDir();
  process.env.HOME = sshd.home;
  copyInstantDemo(join(tmp.path, 'runs'));
});
afterAll(async () => {
  restoreEnv(saved);
  await sshd?.stop();
  tmp?.remove();
});


describe('remote cells over SSH (a real sshd on 127.0.0.1)', () => {
  it('discovers a remote runs root with one command and reads its cells like local ones', async () => {
    const local = capture();
    expect(await runCli(['status', '--json', join(tmp.path, 'runs')], local.io)).toBe(0);
    for (const address of [`testhost:${join(tmp.path, 'runs')}`, `ssh://testhost${join(tmp.path, 'runs')}`]) {
      const remote = capture();
      expect(await runCli(['status', '--json', address], remote.io)).toBe(0);
      const here = JSON.parse(local.out.join('\n')).cells;
      const there = JSON.parse(remote.out.join('\n')).cells;
      expect(there.map((c: { id: string }) => c.id)).toEqual(here.map((c: { path: string }) => `testhost:${c.path}`));
      expect(there.map((c: { budget: object; success_rate: number }) => [c.budget, c.success_rate])).toEqual(here.map((c: { budget: object; success_rate: number }) => [c.budget, c.success_rate]));
    }
  });

  it("lists a remote root with the window's numbers: the CLI's rows are the app's rows", async () => {
    const root = `testhost:${join(tmp.path, 'runs')}`;
    const core = await createCore({ configDir: join(tmp.path, 'config'), dataDir: join(tmp.path, 'data'), transport: 'serve', rescan: false, nvidiaSmi: false, commandLineRoots: [root], onlyCommandLineRoots: true });
    try {
      const cli = capture();
      expect(await runCli(['status', '--json', root], cli.io)).toBe(0);
      const cells = JSON.parse(cli.out.join('\n')).cells;
      expect(cells.length).toBeGreaterThan(3);
      // The window lists the root once the host is connected and its feed has said it is watching.
      await expect.poll(async () => (await core.listCells(root)).length).toBe(cells.length);
      const window = (await core.listCells(root)).sort((a, b) => a.path.localeCompare(b.path));
      const fields = (c: Record<string, unknown>) => [c.id, c.state, c.budget, c.episodes, c.success_rate, c.tokens, c.cost_usd_estimate, c.board];
      expect(cells.map(fields)).toEqual(window.map((c) => fields(c as unknown as Record<string, unknown>)));
    } finally {
      await core.close();
    }
  });

  it("reads a remote root's cells off the thread that serves the window: a cell whose read worker runs out of its memory is a problem of that cell, listed with the others", async () => {
    const root = `testhost:${join(tmp.path, 'runs')}`;
    const here = capture();
    expect(await runCli(['status', '--json', join(tmp.path, 'runs')], here.io)).toBe(0);
    const count = JSON.parse(here.out.join('\n')).cells.length;
    // Workers of 4 MB die on any read: read on this thread, as before, every cell would read whole.
    const core = await createCore({ configDir: join(tmp.path, 'config'), dataDir: join(tmp.path, 'data'), transport: 'serve', rescan: false, nvidiaSmi: false, commandLineRoots: [root], onlyCommandLineRoots: true, openCells: { heapMb: 4 } });
    try {
      await expect.poll(async () => (await core.listCells(root)).length, { timeout: 20_000 }).toBe(count);
      for (const cell of await core.listCells(root)) expect(cell.problems).toContainEqual(expect.objectContaining({ message: expect.stringMatching(/^could not read this cell: .*(memory|heap)/i) }));
      expect((await core.listRoots()).find((r) => r.path === root)).toMatchObject({ state: 'ok', cellCount: count });
    } finally {
      await core.close();
    }
  });

  it('a running cell on a host whose change feed runs turns stale once its files go quiet for the stale time, though no file changed', async () => {
    const dir = join(tmp.path, 'aging');
    writeTree(dir, {
      'std_quiet/run.json': { runner: 'coding-agent', run: 'std_quiet', protocol: { episodes: [0, 1] } },
      'std_quiet/summary.json': { run: 'std_quiet', planned: [0, 1], episodes: {} },
    });
    // Ten minutes less eight seconds ago: running when first listed, stale soon after.
    age(join(dir, 'std_quiet'), ['run.json', 'summary.json', '.'], 10 * 60_000 - 8000);
    const root = `testhost:${dir}`;
    const core = await createCore({ configDir: join(tmp.path, 'config-aging'), dataDir: join(tmp.path, 'data-aging'), transport: 'serve', nvidiaSmi: false, commandLineRoots: [root], onlyCommandLineRoots: true });
    try {
      const state = async () => (await core.listCells(root))[0]?.state;
      await expect.poll(state).toBeDefined();
      expect(await state()).toBe('running');
      await expect.poll(async () => (await core.listHosts())[0]?.feed?.state).toBe('live');
      await expect.poll(state, { timeout: 30_000 }).toBe('stale');
    } finally {
      await core.close();
    }
  });

  it('prints the same board for a root over SSH as for the same root here', async () => {
    const here = capture();
    const there = capture();
    expect(await runCli(['board', '--json', join(tmp.path, 'runs')], here.io)).toBe(0);
    expect(await runCli(['board', '--json', `testhost:${join(tmp.path, 'runs')}`], there.io)).toBe(0);
    const local = JSON.parse(here.out.join('\n'));
    const remote = JSON.parse(there.out.join('\n'));
    expect(local.comparisons.length).toBeGreaterThan(0);
    expect(remote.comparisons).toEqual(local.comparisons);
    expect(remote.cells.map((c: { board: string; ci95: number[] }) => [c.board, c.ci95])).toEqual(local.cells.map((c: { board: string; ci95: number[] }) => [c.board, c.ci95]));
  });

  it('lists the roots it is named at once, host beside host: a host that answers only once the next one is reached is listed', async () => {
    let reached = () => undefined as void;
    const second = new Promise<void>((resolve) => (reached = resolve));
    const closers = [await relayTo(sshd, 'waits', second), await relayTo(sshd, 'opens', Promise.resolve(), () => reached())];
    try {
      const root = join(tmp.path, 'runs');
      const both = capture();
      // One host after the other, the first would wait for the second until its login gave up.
      expect(await runCli(['status', '--json', `waits:${root}`, `opens:${root}`], both.io)).toBe(0);
      const ids = JSON.parse(both.out.join('\n')).cells.map((c: { id: string }) => c.id);
      const one = capture();
      expect(await runCli(['status', '--json', root], one.io)).toBe(0);
      const paths = JSON.parse(one.out.join('\n')).cells.map((c: { path: string }) => c.path);
      expect(ids).toEqual([...paths.map((path: string) => `waits:${path}`), ...paths.map((path: string) => `opens:${path}`)]);
    } finally {
      await Promise.all(closers.map((close) => close()));
    }
  });

  it('cannot be fooled into listing cells outside the root by a file that holds NUL bytes', async () => {
    const forged = join(tmp.path, 'forged');
    // A run.json whose bytes end its own record and forge one for a cell outside the root.
    writeFileSync(join(tmp.path, 'outside-run.json'), '');
    writeTree(forged, { 'cell/run.json': `{"runner": "coding-agent"}\u0000/etc/run.json\u0000{"runner": "coding-agent"}` });
    const { io, out } = capture();
    expect(await runCli(['status', '--json', `testhost:${forged}`], io)).toBe(0);
    expect(JSON.parse(out.join('\n')).cells.map((c: { path: string }) => c.path)).toEqual([]);
    const { io: io2, out: out2 } = capture();
    writeTree(forged, { 'real/run.json': { runner: 'coding-agent' } });
    expect(await runCli(['status', '--json', `testhost:${forged}`], io2)).toBe(0);
    expect(JSON.parse(out2.join('\n')).cells.map((c: { path: string }) => c.path)).toEqual([join(forged, 'real')]);
  });

  it('names a missing remote path and a host it cannot reach', async () => {
    const missing = capture();
    expect(await runCli(['status', `testhost:${join(tmp.path, 'nope')}`], missing.io)).toBe(2);
    expect(missing.err[0]).toContain(`testhost:${join(tmp.path, 'nope')}: runs root does not exist`);
    const unknownKey = capture();
    writeFileSync(join(sshd.home, '.ssh', 'known_hosts'), '');
    expect(await runCli(['episodes', `testhost:${join(tmp.path, 'runs', 'cartpole_evo')}`], unknownKey.io)).toBe(2);
    expect(unknownKey.err[0]).toContain('is not a known host');
    const accepted = capture();
    expect(await runCli(['episodes', '--json', '--accept-new-host-key', `testhost:${join(tmp.path, 'runs', 'cartpole_evo')}`], accepted.io)).toBe(0);
    expect(JSON.parse(accepted.out.join('\n')).episodes).toHaveLength(20);
  });
});

describe('a remote tail', () => {
  const stop = new AbortController();
  afterEach(() => stop.abort());

  it('follows a growing file, and after the connection is cut delivers every line exactly once', async () => {
    const cell = join(tmp.path, 'live', 'std_sdk_m_bare_default');
    const trajectory = join(cell, 'episodes', '0000', 'trajectory.jsonl');
    writeTree(cell, { 'run.json': { runner: 'coding-agent', run: 'std_sdk_m_bare_default', protocol: { episodes: [0] } }, 'episodes/0000/trajectory.jsonl': jsonl([{ seq: 0, ev: 'episode_start' }]) });
    const { io, out, err } = capture();
    const running = runCli(['tail', '--json', `testhost:${cell}`], io, stop.signal);
    await expect.poll(() => out.length).toBe(1);

    let seq = 1;
    const write = (n: number, partialLast = false) => {
      for (let i = 0; i < n; i++) appendFileSync(trajectory, `${JSON.stringify({ seq: seq++, ev: 'tool_call', text: 'x'.repeat(i % 50) })}\n`);
      if (partialLast) appendFileSync(trajectory, `{"seq": ${seq++}, "ev": "tool_`);
    };
    write(40, true);
    await expect.poll(() => out.length).toBe(41);
    sshd.cutSessions();
    appendFileSync(trajectory, 'call"}\n');
    write(30);
    await expect.poll(() => out.length, { timeout: 20_000 }).toBe(72);
    expect(err.join('\n')).toMatch(/testhost: connection lost; reconnecting\ntesthost: connected/);
    const delivered = out.map((l) => JSON.parse(l).seq);
    const written = readFileSync(trajectory, 'utf8').trim().split('\n').map((l) => JSON.parse(l).seq);
    expect(delivered).toEqual(written);
    stop.abort();
    expect(await running).toBe(0);
  });

  it('finds a NeMo Gym collection on the host, and tails its rollouts exactly once across a cut', async () => {
    const real = join(import.meta.dirname, '../../runners/nemo-gym/fixtures/responses_api_agents/hermes_agent/data/example_math_rollouts');
    const rows = readFileSync(`${real}.jsonl`, 'utf8').trim().split('\n');
    const folder = join(tmp.path, 'nemo', 'math');
    const path = join(folder, 'hermes.jsonl');
    writeTree(folder, { 'hermes_materialized_inputs.jsonl': readFileSync(`${real}_materialized_inputs.jsonl`, 'utf8'), 'hermes.jsonl': `${rows[0]}\n` });
    const listed = capture();
    expect(await runCli(['status', '--json', `testhost:${join(tmp.path, 'nemo')}`], listed.io)).toBe(0);
    expect(JSON.parse(listed.out.join('\n')).cells.map((c: { path: string; budget: object }) => [c.path, c.budget])).toEqual([[path, { unit: 'rollouts', used: 1, total: 5 }]]);

    const { io, out } = capture();
    const ours = new AbortController();
    const running = runCli(['tail', '--json', `testhost:${path}`], io, ours.signal);
    await expect.poll(() => out.length).toBe(1);
    appendFileSync(path, `${rows[1]}\n${(rows[2] as string).slice(0, 100)}`);
    await expect.poll(() => out.length).toBe(2);
    sshd.cutSessions();
    appendFileSync(path, `${(rows[2] as string).slice(100)}\n${rows.slice(3).join('\n')}\n`);
    await expect.poll(() => out.length, { timeout: 20_000 }).toBe(5);
    expect(out.map((l) => JSON.parse(l).episode)).toEqual(rows.map((r) => `${JSON.parse(r)._ng_task_index}#0`));
    ours.abort();
    expect(await running).toBe(0);
  });

  it('finds an Inspect log on the host, and tails its samples exactly once across rewrites and a cut', async () => {
    const path = join(tmp.path, 'inspect', '2026-12-01T10-00-00+00-00_arith_x.eval');
    const spec = (done: number, status?: 'success'): LogSpec => ({
      task: 'arith',
      model: 'openai/gpt-4o',
      sampleIds: [1, 2, 3, 4, 5],
      epochs: 1,
      scorer: 'match',
      samples: Array.from({ length: done }, (_, i) => ({ id: i + 1, epoch: 1, scores: { match: 'C' } })),
      ...(status ? { status } : {}),
    });
    // Written over whole, as Inspect writes it.
    const rewrite = (log: LogSpec) => (writeFileSync(`${path}.tmp`, inspectLog(log)), renameSync(`${path}.tmp`, path));
    mkdirSync(dirname(path), { recursive: true });
    rewrite(spec(1));
    const listed = capture();
    expect(await runCli(['status', '--json', `testhost:${dirname(path)}`], listed.io)).toBe(0);
    expect(JSON.parse(listed.out.join('\n')).cells.map((c: { path: string; format: string; budget: object }) => [c.path, c.format, c.budget])).toEqual([[path, 'inspect', { unit: 'samples', used: 1, total: 5 }]]);

    const { io, out } = capture();
    const ours = new AbortController();
    const running = runCli(['tail', '--json', `testhost:${path}`], io, ours.signal);
    await expect.poll(() => out.length).toBe(1);
    rewrite(spec(2));
    await expect.poll(() => out.length).toBe(2);
    sshd.cutSessions();
    rewrite(spec(4));
    rewrite(spec(5, 'success'));
    await expect.poll(() => out.length, { timeout: 20_000 }).toBe(5);
    expect(out.map((l) => JSON.parse(l).episode)).toEqual(['1#1', '2#1', '3#1', '4#1', '5#1']);
    ours.abort();
    expect(await running).toBe(0);
  });
});
