import { appendFileSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../shared/alerts';
import type { HostStatus } from '../../shared/contract';
import type { CellDelta } from '../../shared/cell-detail';
import { jsonl, restoreEnv, tempDir, writeTree } from '../../runners/testing';
import { createCore, type Core } from '../core';
import { shellNvidiaSmi } from '../gpu/fake/shell';
import { startSshd, type TestSshd } from './testing';

let sshd: TestSshd;
let tmp: ReturnType<typeof tempDir>;
let core: Core;
const saved = { ...process.env };
const hostStates: string[] = [];
const deltas: CellDelta[] = [];
const alerts: Alert[] = [];

beforeAll(async () => {
  sshd = await startSshd();
  tmp = tempDir();
  process.env.HOME = sshd.home;
  writeFileSync(join(sshd.home, '.ssh', 'known_hosts'), '');
  writeTree(join(tmp.path, 'runs', 'std_sdk_m_bare_default'), {
    'run.json': { runner: 'coding-agent', run: 'std_sdk_m_bare_default', protocol: { episodes: [0, 1] } },
    'episodes/0000/trajectory.jsonl': jsonl([{ seq: 0, t: 1, ev: 'episode_start' }]),
    'episodes/0000/frames/000001.png': 'not really a png',
  });
  const capture = join(import.meta.dirname, '..', 'gpu', 'fixtures', 'noheader-nounits', 'linux-x86_64__nvidia-h200__590.48.01__load.csv');
  const remoteNvidiaSmi = shellNvidiaSmi(tmp.path, capture);
  core = await createCore({ configDir: join(tmp.path, 'config'), dataDir: join(tmp.path, 'data'), transport: 'serve', rescan: false, nvidiaSmi: false, remoteNvidiaSmi, alerts: { hostDownMs: 2000, checkMs: 100 } });
  core.events.on('hostsChanged', (hosts: HostStatus[]) => hostStates.push(hosts.map((h) => `${h.alias}:${h.state}`).join(',')));
  core.events.on('cellChanged', (delta) => deltas.push(delta));
  core.events.on('alertRaised', (alert) => alerts.push(alert));
});
afterAll(async () => {
  await core?.close();
  restoreEnv(saved);
  await sshd?.stop();
  tmp?.remove();
});

describe('a remote runs root in the app', () => {
  it('asks before trusting an unknown host key, then lists the remote cells', async () => {
    const root = `testhost:${join(tmp.path, 'runs')}`;
    const added = await core.addRoot(root);
    expect(added.state).toBe('unreadable');
    const [host] = await core.listHosts();
    expect(host).toMatchObject({ alias: 'testhost', state: 'failed', unknownKey: expect.stringMatching(/^SHA256:/) });
    await core.acceptHostKey('testhost');
    await expect.poll(async () => (await core.listCells()).map((c) => c.id)).toEqual([`testhost:${join(tmp.path, 'runs', 'std_sdk_m_bare_default')}`]);
    expect((await core.listRoots())[0]).toMatchObject({ path: root, state: 'ok', cellCount: 1 });
  });

  it("samples the host's GPUs with nvidia-smi over the same connection, every 10 s until a window asks for them, every 2 s then", async () => {
    const paces = () => readFileSync(join(tmp.path, 'nvidia-smi.log'), 'utf8').split('\n').filter((line) => line.includes('-lms')).map((line) => line.split(' ').at(-1));
    await expect.poll(paces).toEqual(['10000']);
    await expect.poll(async () => (await core.gpuStatus('testhost')).history.at(-1)?.gpus).toEqual([
      { index: 0, name: 'NVIDIA H200', totalMib: 143771, usedMib: 32362, freeMib: 110796, utilizationPct: 100 },
    ]);
    await expect.poll(paces).toEqual(['10000', '2000']);
  });

  it('streams a remote episode, serves its frames, and resumes after the connection drops', async () => {
    const id = `testhost:${join(tmp.path, 'runs', 'std_sdk_m_bare_default')}`;
    const detail = await core.openCell(id);
    expect(detail.episodes.map((e) => [e.id, e.status])).toEqual([['0', 'running']]);
    const opened = await core.openStream(id, '0');
    expect(opened.events.map((e) => e.ev)).toEqual(['episode_start']);
    const frames = await core.listFrames(id, { kind: 'episode', episode: '0' });
    const media = await core.media(`/${frames.cameras[0]?.urls[0]}`);
    expect(media && 'bytes' in media ? media.bytes.toString() : null).toBe('not really a png');

    const trajectory = join(tmp.path, 'runs', 'std_sdk_m_bare_default', 'episodes', '0000', 'trajectory.jsonl');
    const events = () => deltas.flatMap((d) => d.events ?? []).map((e) => e.seq);
    appendFileSync(trajectory, jsonl([1, 2, 3].map((seq) => ({ seq, ev: 'tool_call' }))));
    await expect.poll(events).toEqual([1, 2, 3]);
    sshd.cutSessions();
    appendFileSync(trajectory, jsonl([4, 5].map((seq) => ({ seq, ev: 'tool_call' }))));
    await expect.poll(() => hostStates.join(' ')).toMatch(/testhost:reconnecting.*testhost:connected/);
    await expect.poll(events).toEqual([1, 2, 3, 4, 5]);
    await core.closeCell(id);
  });

  it('serves a remote cell\'s files only from inside it, links resolved on the host', async () => {
    const cell = join(tmp.path, 'runs', 'std_sdk_m_bare_default');
    writeFileSync(join(tmp.path, 'secret.txt'), 'outside the cell');
    symlinkSync(join(tmp.path, 'secret.txt'), join(cell, 'leak.txt'));
    symlinkSync('/etc/passwd', join(cell, 'passwd.png'));
    symlinkSync('episodes/0000/frames/000001.png', join(cell, 'inside.png'));
    const media = async (file: string) => {
      const found = await core.media(`/media/${encodeURIComponent(`testhost:${cell}`)}/${file}`);
      return found && 'bytes' in found ? found.bytes.toString() : null;
    };
    expect(await media('leak.txt')).toBeNull();
    expect(await media('passwd.png')).toBeNull();
    expect(await media('..%2F..%2Fsecret.txt')).toBeNull();
    expect(await media('inside.png')).toBe('not really a png');
  });

  it('raises one alert when the host has been unreachable for the set time, naming why', async () => {
    expect(alerts).toEqual([]);
    await sshd.down();
    await expect.poll(() => alerts.map((a) => [a.kind, a.subject])).toEqual([['host_down', 'testhost']]);
    expect(alerts[0]?.message).toMatch(/^unreachable for \d+ s: .+/);
    await new Promise((r) => setTimeout(r, 1000));
    expect(alerts).toHaveLength(1);
    await sshd.up();
  });

  it('says so on the root when listing it would print more than a remote command may, and keeps its cells', async () => {
    await expect.poll(async () => (await core.listHosts())[0]?.state, { timeout: 30_000 }).toBe('connected');
    const big = join(tmp.path, 'big');
    writeTree(join(big, 'std_sdk_m_bare_default'), { 'run.json': { runner: 'coding-agent' } });
    // 70 JSON files of 1,000 KB: each small enough to come with the listing, together past its 64 MB.
    const padding = JSON.stringify({ pad: 'x'.repeat(1_000_000) });
    for (let i = 0; i < 70; i++) writeFileSync(join(big, `blob-${i}.json`), padding);
    const root = await core.addRoot(`testhost:${big}`);
    expect(root.state).toBe('unreadable');
    expect(root.problems[0]?.message).toMatch(/^listing the root on testhost printed more than 64 MB; stopped/);
    expect((await core.listRoots()).find((r) => r.path === `testhost:${join(tmp.path, 'runs')}`)?.state).toBe('ok');
  });
});
