import type { GpuReading } from '../gpu/parse';

export const MIN_FREE_MIB = 6000;

export interface GpuChoice {
  requested?: number;
  minFreeMib?: number;
  /** Launch even below the minimum, or without a GPU. */
  override?: boolean;
}

/** The GPU a run gets: the one asked for, else the one with the most free memory; refused below the minimum. */
export function pickGpu(gpus: GpuReading[], choice: GpuChoice = {}, where = 'here'): number | null {
  const min = choice.minFreeMib ?? MIN_FREE_MIB;
  if (gpus.length === 0) {
    if (choice.override) return null;
    throw new Error(`no NVIDIA GPU found ${where}; override to launch without one`);
  }
  const gpu =
    choice.requested !== undefined
      ? gpus.find((g) => g.index === choice.requested)
      : [...gpus].sort((a, b) => (b.freeMib ?? -1) - (a.freeMib ?? -1))[0];
  if (!gpu) throw new Error(`there is no GPU ${choice.requested}; ${where === 'here' ? 'this machine has' : `${where.slice(3)} has`} ${gpus.map((g) => g.index).join(', ')}`);
  if ((gpu.freeMib ?? 0) < min && !choice.override) {
    throw new Error(`GPU ${gpu.index} has ${gpu.freeMib ?? '?'} MiB free, below the ${min} MiB minimum; pick another GPU or override`);
  }
  return gpu.index;
}
