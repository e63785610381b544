// The machine's own figures as the window and `cellwatch gpu` show them: GPUs from nvidia-smi, CPU, memory
// and disks from systeminformation.
import type { Problem } from './model';

/** One GPU's memory at a moment, as nvidia-smi reported it. */
export interface GpuReading {
  index: number;
  name: string;
  totalMib: number | null;
  usedMib: number | null;
  /** As nvidia-smi reports it: total = reserved + used + free, so never total minus used. */
  freeMib: number | null;
  /** null when the card does not say (MIG mode, some drivers). */
  utilizationPct: number | null;
}

export interface GpuProcess {
  pid: number;
  gpuUuid: string | null;
  /** null on Windows WDDM, where per-process memory is not reported. */
  usedMib: number | null;
  /** The launched run whose process group holds the process. */
  run?: string;
}

export interface GpuSample {
  /** The SSH host it was sampled on; absent for this machine. */
  host?: string;
  /** Epoch milliseconds. */
  t: number;
  gpus: GpuReading[];
  processes: GpuProcess[];
}

export interface GpuStatus {
  /** False when this machine has no nvidia-smi (or it never answered). */
  available: boolean;
  problems: Problem[];
  /** The last samples, oldest first (about ten minutes at 1 Hz). */
  history: GpuSample[];
}

/** CPU, memory and disks of the machine (systeminformation), and GPUs it lists where nvidia-smi does not run. */
export interface SystemSample {
  otherGpus: { vendor: string; model: string; vramMib: number | null }[];
  cpuLoadPct: number | null;
  memory: { totalMib: number; usedMib: number } | null;
  disks: { mount: string; sizeGib: number; usedGib: number }[];
  /** The samples of the last ten minutes (those taken when asked, oldest first), each share 0 to 1. */
  history: SystemPoint[];
}

export interface SystemPoint {
  t: number;
  cpu: number | null;
  memory: number | null;
  /** By mount. */
  disks: Record<string, number>;
}
