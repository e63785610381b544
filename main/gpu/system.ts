import si from 'systeminformation';
import { gpuQueryArgs, appsQueryArgs, runOnce } from './sampler';
import { parseGpus, parseProcesses, type GpuProcess, type GpuReading } from './parse';

export interface MachineSample {
  host: string;
  t: number;
  gpus: GpuReading[];
  processes: GpuProcess[];
  /** GPUs that systeminformation lists where nvidia-smi does not run (other vendors, no driver). */
  otherGpus: { vendor: string; model: string; vramMib: number | null }[];
  cpuLoadPct: number | null;
  memory: { totalMib: number; usedMib: number } | null;
  disks: { mount: string; sizeGib: number; usedGib: number }[];
  problems: string[];
}

const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);
const gib = (bytes: number) => Math.round((bytes / 1024 ** 3) * 10) / 10;

/** One sample of this machine: NVIDIA GPUs by nvidia-smi, the rest by systeminformation. */
export async function sampleMachine(command = 'nvidia-smi'): Promise<MachineSample> {
  const problems: string[] = [];
  const [gpus, processes] = await Promise.all([
    runOnce(command, gpuQueryArgs()).then(parseGpus, (error: Error) => (problems.push(error.message), [] as GpuReading[])),
    runOnce(command, appsQueryArgs).then(parseProcesses, () => [] as GpuProcess[]),
  ]);
  const [load, memory, disks, graphics] = await Promise.all([
    si.currentLoad().catch(() => null),
    si.mem().catch(() => null),
    si.fsSize().catch(() => []),
    gpus.length ? Promise.resolve(null) : si.graphics().catch(() => null),
  ]);
  const otherGpus = (graphics?.controllers ?? []).map((c) => ({ vendor: c.vendor, model: c.model, vramMib: c.vram ?? null }));
  if (gpus.length === 0 && otherGpus.length === 0) problems.push('no GPU found on this machine');
  return {
    host: 'local',
    t: Date.now(),
    gpus,
    processes,
    otherGpus,
    cpuLoadPct: load ? Math.round(load.currentLoad * 10) / 10 : null,
    memory: memory ? { totalMib: mib(memory.total), usedMib: mib(memory.active) } : null,
    disks: disks.map((d) => ({ mount: d.mount, sizeGib: gib(d.size), usedGib: gib(d.used) })),
    problems,
  };
}
