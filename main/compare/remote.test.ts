// Compare, record and the paired test give the same results on cells served from an SSH host (a real
// sshd) as on the same cells read locally, and each command or core reaches the host over one connection.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { copyInstantDemo } from '../../runners/demo/testing';
import { restoreEnv, tempDir } from '../../runners/testing';
import { runCli } from '../cli/run';
import { capture } from '../cli/testing';
import { createCore, type Core } from '../core';
import { findFfmpeg } from '../record/ffmpeg';
import { startSshd, type TestSshd } from '../ssh/testing';

let sshd: TestSshd;
let tmp: ReturnType<typeof tempDir>;
let runs: string;
const saved = { ...process.env };
const BARE = 'std_sdk_demo-model_bare_default';
const FULL = 'std_sdk_demo-model_full_default';

beforeAll(async () => {
  sshd = await startSshd({ trusted: true });
  tmp = tempDir();
  runs = join(tmp.path, 'runs');
  process.env.HOME = sshd.home;
  copyInstantDemo(runs);
});
afterAll(async () => {
  restoreEnv(saved);
  await sshd?.stop();
  tmp?.remove();
});

/** Runs a CLI command; returns its output and how many SSH connections it opened. */
async function cli(args: string[]): Promise<{ code: number; out: string; connections: number }> {
  const before = await sshd.connections();
  const { io, out, err } = capture();
  const code = await runCli(args, io);
  if (code !== 0) throw new Error(`cellwatch ${args.join(' ')}: ${err.join('\n')}`);
  return { code, out: out.join('\n'), connections: (await sshd.connections()) - before };
}

const withoutIds = (json: string) => {
  const { a: _a, b: _b, ...rest } = JSON.parse(json) as Record<string, unknown>;
  return rest;
};

describe('cellwatch on cells of an SSH host', () => {
  it('mcnemar: the same table for a coding-agent pair and two policy versions, each over one connection', async () => {
    for (const [a, b] of [[BARE, FULL], ['cartpole_balance@v001', 'cartpole_balance@v004']] as const) {
      const local = await cli(['mcnemar', '--json', join(runs, a), join(runs, b)]);
      const remote = await cli(['mcnemar', '--json', `testhost:${join(runs, a)}`, `testhost:${join(runs, b)}`]);
      expect(withoutIds(remote.out)).toEqual(withoutIds(local.out));
      expect(JSON.parse(remote.out).pairs).toBeGreaterThan(0);
      expect([local.connections, remote.connections]).toEqual([0, 1]);
    }
  });

  it('record: the same frames, fetched over one connection', async () => {
    const args = (root: string, out: string) => ['record', '--compare', 'cartpole_balance:v001,cartpole_balance:v004', '--seed', '900001', '--seconds', '1', '-o', out, root];
    const local = await cli(args(runs, join(tmp.path, 'local.mp4')));
    const remote = await cli(args(`testhost:${runs}`, join(tmp.path, 'remote.mp4')));
    expect(remote.connections).toBe(1);
    expect(local.connections).toBe(0);
    const decoded = (file: string) => execFileSync(findFfmpeg(), ['-v', 'error', '-i', file, '-f', 'framemd5', '-'], { encoding: 'utf8' }).split('\n').filter((l) => !l.startsWith('#'));
    expect(decoded(join(tmp.path, 'remote.mp4'))).toEqual(decoded(join(tmp.path, 'local.mp4')));
    expect(readFileSync(join(tmp.path, 'remote.mp4')).length).toBeGreaterThan(1000);
  });
});

describe('the app on cells of an SSH host', () => {
  let local: Core;
  let remote: Core;
  beforeAll(async () => {
    const options = { transport: 'serve' as const, rescan: false, nvidiaSmi: false as const, remoteNvidiaSmi: '/bin/false' };
    local = await createCore({ ...options, configDir: join(tmp.path, 'local-config'), commandLineRoots: [runs] });
    await local.scanned();
    const before = await sshd.connections();
    remote = await createCore({ ...options, configDir: join(tmp.path, 'remote-config'), commandLineRoots: [`testhost:${runs}`] });
    await remote.scanned();
    const want = (await local.listCells()).length;
    // A hook's wait (expect.poll is for tests): every cell listed, or the hook fails.
    await vi.waitUntil(async () => (await remote.listCells()).length >= want, { timeout: 50_000, interval: 100 });
    expect((await sshd.connections()) - before).toBe(1);
  });
  afterAll(async () => {
    await local?.close();
    await remote?.close();
  });

  const id = async (core: Core, name: string) => (await core.listCells()).find((c) => c.name === name)?.id as string;

  it('Compare: the same seed, outcomes and frames per slot; Paired: the same tables; all over the one connection', async () => {
    const before = await sshd.connections();
    const slots = 'cartpole_balance:v001,cartpole_balance:v004';
    const [here, there] = await Promise.all([local.compare(slots, '900001'), remote.compare(slots, '900001')]);
    const shape = (c: typeof here) => c.slots.map((s) => [s.version, s.source, s.outcome, s.frames.cameras.map((cam) => [cam.name, cam.urls.length])]);
    expect(shape(there)).toEqual(shape(here));
    expect(there.seeds).toEqual(here.seeds);

    // Frames of the remote slots are served from the host.
    const url = there.slots[0]?.frames.cameras[0]?.urls[0] as string;
    const media = await remote.media(`/${url}`);
    expect(media && 'bytes' in media ? media.bytes.subarray(1, 4).toString() : null).toBe('PNG');

    for (const [a, b] of [[BARE, FULL], ['cartpole_balance', 'cartpole_balance']] as const) {
      const versions = a === b ? ['@v001', '@v004'] : ['', ''];
      const test = async (core: Core) => {
        const result = await core.pairedTest(`${await id(core, a)}${versions[0]}`, `${await id(core, b)}${versions[1]}`);
        return result.ok ? result.table : result;
      };
      expect(await test(remote)).toEqual(await test(local));
    }
    expect((await sshd.connections()) - before).toBe(0);
  });

  it('a recording of remote slots matches the local one', async () => {
    const done = (core: Core) =>
      new Promise<string>((resolve, reject) => {
        const off = core.events.on('recordProgress', (p) => {
          if (p.error) reject(new Error(p.error));
          if (p.file) {
            off();
            resolve(p.file);
          }
        });
      });
    const slots = 'cartpole_balance:v001,cartpole_balance:v004';
    const [localFile, remoteFile] = await Promise.all([done(local), done(remote), local.record(slots, '900001', 1, 25), remote.record(slots, '900001', 1, 25)]);
    const decoded = (file: string) => execFileSync(findFfmpeg(), ['-v', 'error', '-i', file, '-f', 'framemd5', '-'], { encoding: 'utf8' }).split('\n').filter((l) => !l.startsWith('#'));
    expect(decoded(remoteFile)).toEqual(decoded(localFile));
  });
});
