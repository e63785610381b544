import { once, EventEmitter } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Problem } from '../../shared/model';
import { restoreEnv, tempDir, writeTree } from '../../runners/testing';
import { GpuSampler, type GpuSample } from './sampler';

const FAKE = join(import.meta.dirname, 'fake', 'nvidia-smi');
const H200_LOAD = join(import.meta.dirname, 'fixtures', 'noheader-nounits', 'linux-x86_64__nvidia-h200__590.48.01__load.csv');

let tmp: ReturnType<typeof tempDir>;
let sampler: GpuSampler | undefined;
let samples: GpuSample[];
let problems: Problem[];
const saved = { ...process.env };

/** A sampler of the fake; it counts as fallen silent only after `silentMs`, the test's own (no race with a busy machine). */
function start(mode: string, { intervalMs = 100, silentMs = 60_000 } = {}): GpuSampler {
  process.env.FAKE_SMI_GPUS = join(tmp.path, 'gpus.csv');
  process.env.FAKE_SMI_APPS = join(tmp.path, 'apps.csv');
  process.env.FAKE_SMI_STARTS = join(tmp.path, 'starts.log');
  process.env.FAKE_SMI_MODE = mode;
  sampler = new GpuSampler({ command: FAKE, intervalMs, silentMs, processesEveryMs: 200, onSample: (s) => samples.push(s), onProblem: (p) => problems.push(p) });
  sampler.start();
  return sampler;
}

beforeEach(() => {
  tmp = tempDir();
  // Two GPUs a round: the real H200 line and a second card.
  writeTree(tmp.path, {
    'gpus.csv': `${readFileSync(H200_LOAD, 'utf8').trim()}\n1, NVIDIA H200, 143771, 0, 143150, 0\n`,
    'apps.csv': '00000000-GPU, 4242, 23150\n',
  });
  samples = [];
  problems = [];
});
afterEach(() => {
  vi.useRealTimers();
  sampler?.stop();
  restoreEnv(saved);
  tmp.remove();
});

describe('GPU sampler against a fake nvidia-smi replaying real output', () => {
  it('turns each round of lines into one sample of every GPU, with per-process memory', async () => {
    start('steady-0');
    await expect.poll(() => samples.length).toBeGreaterThan(3);
    const last = samples.at(-1)!;
    expect(last.gpus.map((g) => [g.index, g.totalMib])).toEqual([[0, 143771], [1, 143771]]);
    expect(last.gpus[0]!.usedMib).toBeGreaterThan(0);
    await expect.poll(() => samples.at(-1)!.processes).toEqual([{ pid: 4242, gpuUuid: '00000000-GPU', usedMib: 23150 }]);
    const starts = readFileSync(join(tmp.path, 'starts.log'), 'utf8').split('\n').filter((l) => l.includes('-lms'));
    expect(starts).toEqual(['--query-gpu=index,name,memory.total,memory.used,memory.free,utilization.gpu --format=csv,noheader,nounits -lms 100']);
    expect(problems).toEqual([]);
  });

  it('makes two rounds read at once (a busy machine) two samples, each GPU once in each', async () => {
    start('twice-0');
    await expect.poll(() => samples.length).toBeGreaterThan(3);
    expect(new Set(samples.map((s) => JSON.stringify(s.gpus.map((g) => g.index))))).toEqual(new Set(['[0,1]']));
  });

  it('takes a new pace: the running nvidia-smi replaced by one at it, the samples going on, nothing said', async () => {
    const s = start('steady-0');
    await expect.poll(() => samples.length).toBeGreaterThan(1);
    s.pace(200);
    const paces = () => readFileSync(join(tmp.path, 'starts.log'), 'utf8').split('\n').filter((l) => l.includes('-lms')).map((l) => l.split(' ').at(-1));
    await expect.poll(paces).toEqual(['100', '200']);
    const before = samples.length;
    await expect.poll(() => samples.length).toBeGreaterThan(before + 1);
    expect([s.starts, problems]).toEqual([2, []]);
  });

  it('restarts nvidia-smi when it dies, and says so', async () => {
    const s = start('die-after-2');
    await expect.poll(() => s.starts).toBeGreaterThanOrEqual(2);
    expect(problems[0]?.message).toMatch(/exited with code 3; restarting in 1 s/);
    const before = samples.length;
    await expect.poll(() => samples.length).toBeGreaterThan(before);
  });

  it('kills and restarts an nvidia-smi that falls silent', async () => {
    const s = start('silent-after-1', { silentMs: 500 });
    await expect.poll(() => problems.map((p) => p.message).join('\n')).toMatch(/fell silent for 0.5 s/);
    await expect.poll(() => s.starts).toBeGreaterThanOrEqual(2);
  });

  it('says nothing once stopped, of lines already on their way', async () => {
    const stdout = new PassThrough();
    const child = Object.assign(new EventEmitter(), { stdout, stderr: null, kill: () => undefined });
    sampler = new GpuSampler({ spawn: () => child, once: () => new Promise(() => undefined), onSample: (s) => samples.push(s), onProblem: (p) => problems.push(p) });
    sampler.start();
    sampler.stop();
    // Two rounds of both GPUs: the second round's first line closes the first round at once.
    stdout.end(readFileSync(join(tmp.path, 'gpus.csv'), 'utf8').repeat(2));
    await once(stdout, 'end');
    await new Promise((resolve) => setImmediate(resolve));
    expect([samples, problems]).toEqual([[], []]);
  });

  // Here nvidia-smi's start fails (ENOENT); on a host, the shell that runs it exits 127.
  it.each([
    ['here', () => join(tmp.path, 'no-such-nvidia-smi')],
    [
      "on a host, its shell's 127",
      () => {
        writeFileSync(join(tmp.path, 'exits-127'), '#!/bin/sh\nexit 127\n', { mode: 0o755 });
        return join(tmp.path, 'exits-127');
      },
    ],
  ])('says plainly when there is no nvidia-smi (%s), and asks it for no processes again', async (_, command) => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let asked = 0;
    const once = () => (asked++, Promise.reject(new Error('not found')));
    sampler = new GpuSampler({ command: command(), once, processesEveryMs: 1000, onSample: (s) => samples.push(s), onProblem: (p) => problems.push(p) });
    sampler.start();
    await expect.poll(() => problems[0]?.message).toMatch(/not found: this machine has no NVIDIA GPU sampler/);
    // A machine without a GPU is no fault of it.
    expect(problems[0]?.severity).toBe('warning');
    vi.advanceTimersByTime(10_000);
    expect(asked).toBe(1);
  });
});
