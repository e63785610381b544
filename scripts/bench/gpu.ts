// npm run bench:gpu: CPU time of the GPU sampler at 1 Hz (one long-lived nvidia-smi -lms 1000, plus a
// per-process query every 10 s) beside spawning nvidia-smi once a second, for BENCH_SECONDS (60).
// Without a GPU here it runs a tiny shell stand-in that replays a real H200 capture (a shell script
// costs about what the C nvidia-smi does to start; the Node fake of the tests would cost ten times more).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shellNvidiaSmi } from '../../main/gpu/fake/shell';
import { GpuSampler, gpuQueryArgs } from '../../main/gpu/sampler';
import { cpuSeconds, ROOT } from './measure';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const real = process.env.CELLWATCH_NVIDIA_SMI ?? (existsSync('/usr/bin/nvidia-smi') ? '/usr/bin/nvidia-smi' : null);
const capture = join(ROOT, 'main/gpu/fixtures/noheader-nounits/linux-x86_64__nvidia-h200__590.48.01__load.csv');
const standIn = real ? null : mkdtempSync(join(tmpdir(), 'cellwatch-bench-gpu-'));
const command = real ?? shellNvidiaSmi(standIn as string, capture);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function longLived(): Promise<{ cpu: number; samples: number }> {
  let samples = 0;
  const before = cpuSeconds('self', true);
  const sampler = new GpuSampler({ command, intervalMs: 1000, onSample: () => samples++, onProblem: (p) => console.error(p.message) });
  sampler.start();
  await sleep(SECONDS * 1000);
  const child = sampler.pid ? cpuSeconds(sampler.pid, true) : 0;
  sampler.stop();
  await sleep(200);
  return { cpu: cpuSeconds('self', true) - before + child, samples };
}

async function spawnEverySecond(): Promise<{ cpu: number; samples: number }> {
  let samples = 0;
  const before = cpuSeconds('self', true);
  const started = Date.now();
  while (Date.now() - started < SECONDS * 1000) {
    const tick = Date.now();
    await new Promise<void>((resolve) => execFile(command, gpuQueryArgs(), { timeout: 5000 }, () => (samples++, resolve())));
    await sleep(Math.max(0, 1000 - (Date.now() - tick)));
  }
  return { cpu: cpuSeconds('self', true) - before, samples };
}

console.log(`Sampling ${real ? 'the real nvidia-smi' : 'a shell stand-in for nvidia-smi (no GPU here)'} for ${SECONDS} s each way...`);
const a = await longLived();
const b = await spawnEverySecond();
if (standIn) rmSync(standIn, { recursive: true, force: true });
const pct = (cpu: number) => `${((cpu / SECONDS) * 100).toFixed(2)}% of a core`;
console.log('');
console.log(`${'spawn nvidia-smi once a second'.padEnd(40)} ${b.cpu.toFixed(2).padStart(6)} CPU s  ${pct(b.cpu)}  (${b.samples} samples) baseline`);
console.log(`${'cellwatch sampler (-lms 1000)'.padEnd(40)} ${a.cpu.toFixed(2).padStart(6)} CPU s  ${pct(a.cpu)}  (${a.samples} samples) goal: below 1%`);
