import { describe, expect, it } from 'vitest';
import type { GpuReading } from '../gpu/parse';
import { pickGpu } from './gpu-pick';

const gpu = (index: number, freeMib: number): GpuReading => ({ index, name: 'NVIDIA H200', totalMib: 143771, usedMib: 143771 - freeMib, freeMib, utilizationPct: 0 });

describe('GPU picker', () => {
  it('takes the GPU with the most free memory', () => expect(pickGpu([gpu(0, 9000), gpu(1, 120000), gpu(2, 40000)])).toBe(1));
  it('takes the GPU asked for', () => expect(pickGpu([gpu(0, 9000), gpu(1, 120000)], { requested: 0 })).toBe(0));
  it('refuses below the minimum unless overridden', () => {
    expect(() => pickGpu([gpu(0, 5000)])).toThrow('GPU 0 has 5000 MiB free, below the 6000 MiB minimum');
    expect(pickGpu([gpu(0, 5000)], { override: true })).toBe(0);
    expect(() => pickGpu([gpu(0, 7000)], { minFreeMib: 8000 })).toThrow(/below the 8000 MiB minimum/);
  });
  it('refuses a machine without a GPU unless overridden', () => {
    expect(() => pickGpu([])).toThrow(/no NVIDIA GPU found here/);
    expect(pickGpu([], { override: true })).toBeNull();
  });
  it('names a GPU that does not exist', () => expect(() => pickGpu([gpu(0, 9000)], { requested: 3 })).toThrow('there is no GPU 3'));
});
