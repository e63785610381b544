// A log on an SSH host that a runner rotates (renames, then starts a new file) goes on being followed from
// the new file's first line, and a dropped connection after that loses and doubles nothing.
import { appendFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jsonl, tempDir, writeTree } from '../../runners/testing';
import { createCore, type Core } from '../core';
import { startSshd, type TestSshd } from '../ssh/testing';

let sshd: TestSshd;
let tmp: ReturnType<typeof tempDir>;
let core: Core;
const saved = process.env.HOME;
beforeAll(async () => {
  sshd = await startSshd({ trusted: true });
  tmp = tempDir();
  process.env.HOME = sshd.home;
});
afterAll(async () => {
  await core?.close();
  process.env.HOME = saved;
  await sshd?.stop();
  tmp?.remove();
});

it('follows a remote log across rotations and dropped connections, every line once, in order', async () => {
  const cell = join(tmp.path, 'runs', 'std_a_b_c_d');
  const trajectory = join(cell, 'episodes', '0000', 'trajectory.jsonl');
  writeTree(cell, { 'run.json': { runner: 'coding-agent', protocol: { episodes: [0] } }, 'episodes/0000/trajectory.jsonl': '' });
  core = await createCore({ configDir: join(tmp.path, 'config'), transport: 'serve', commandLineRoots: [`testhost:${join(tmp.path, 'runs')}`], rescan: false, nvidiaSmi: false, remoteNvidiaSmi: '/bin/false' });
  const got: number[] = [];
  core.events.on('cellChanged', (delta) => delta.events?.forEach((e) => got.push(e.fields.n as number)));
  const id = `testhost:${cell}`;
  await expect.poll(async () => (await core.listCells()).map((c) => c.id)).toEqual([id]);
  await core.openCell(id);
  await core.openStream(id, '0');
  const write = (ns: number[]) => appendFileSync(trajectory, jsonl(ns.map((n) => ({ seq: n, ev: 'tool_call', n }))));
  write([0, 1, 2]);
  await expect.poll(() => got).toEqual([0, 1, 2]);
  renameSync(trajectory, `${trajectory}.1`);
  writeFileSync(trajectory, '');
  write([3, 4]);
  await expect.poll(() => got, { timeout: 20_000 }).toEqual([0, 1, 2, 3, 4]);
  sshd.cutSessions();
  write([5]);
  await expect.poll(() => got, { timeout: 20_000 }).toEqual([0, 1, 2, 3, 4, 5]);
  // A rotation with lines on either side of a cut, five times: the new file is read from its first line.
  for (let round = 0; round < 5; round++) {
    const base = 6 + round * 10;
    renameSync(trajectory, `${trajectory}.${round + 2}`);
    writeFileSync(trajectory, '');
    write([base, base + 1, base + 2, base + 3, base + 4]);
    sshd.cutSessions();
    write([base + 5, base + 6, base + 7, base + 8, base + 9]);
    await new Promise((r) => setTimeout(r, 250));
    sshd.cutSessions();
    await expect.poll(() => got.length, { timeout: 40_000 }).toBe(base + 10);
  }
  expect(got).toEqual(Array.from({ length: 56 }, (_, i) => i));
});
