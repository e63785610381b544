import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './run';
import { capture } from './testing';
import { restoreEnv } from '../../runners/testing';

const GPU_DIR = join(import.meta.dirname, '..', 'gpu');
const saved = { ...process.env };
afterEach(() => restoreEnv(saved));


describe('cellwatch gpu', () => {
  it('prints one sample of the GPUs that nvidia-smi reports, as JSON', async () => {
    process.env.CELLWATCH_NVIDIA_SMI = join(GPU_DIR, 'fake', 'nvidia-smi');
    process.env.FAKE_SMI_GPUS = join(GPU_DIR, 'fixtures', 'noheader-nounits', 'linux-x86_64__nvidia-h100-mig__590.48.01__load.csv');
    const { io, out } = capture();
    expect(await runCli(['gpu', '--json'], io)).toBe(0);
    const sample = JSON.parse(out.join('\n'));
    expect(sample.gpus).toEqual([expect.objectContaining({ index: 0, name: expect.stringContaining('H100'), utilizationPct: null })]);
    expect(sample.memory.totalMib).toBeGreaterThan(0);
    expect(sample.problems).toEqual([]);
  });

  it('says plainly when this machine has no nvidia-smi', async () => {
    process.env.CELLWATCH_NVIDIA_SMI = '/nonexistent/nvidia-smi';
    const { io, err } = capture();
    expect(await runCli(['gpu'], io)).toBe(0);
    expect(err.join('\n')).toContain('/nonexistent/nvidia-smi not found on this machine');
  });
});
