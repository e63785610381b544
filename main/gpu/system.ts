import si from 'systeminformation';
import type { SystemPoint, SystemSample } from '../../shared/machine';
import { gpuQueryArgs, appsQueryArgs } from './sampler';
import { runOnce } from '../programs';
import { parseGpus, parseProcesses, type GpuProcess, type GpuReading } from './parse';
import { LOCAL } from '../../shared/address';

export interface MachineSample extends Omit<SystemSample, 'history'> {
  host: string;
  t: number;
  gpus: GpuReading[];
  processes: GpuProcess[];
  problems: string[];
}

const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);
const gib = (bytes: number) => Math.round((bytes / 1024 ** 3) * 10) / 10;

/** CPU, memory and disks by systeminformation; with `listGpus`, the GPUs it finds (for machines without nvidia-smi). */
export async function sampleSystem(listGpus: boolean): Promise<Omit<SystemSample, 'history'>> {
  const [load, memory, disks, graphics] = await Promise.all([
    si.currentLoad().catch(() => null),
    si.mem().catch(() => null),
    si.fsSize().catch(() => []),
    listGpus ? si.graphics().catch(() => null) : Promise.resolve(null),
  ]);
  return {
    otherGpus: (graphics?.controllers ?? []).map((c) => ({ vendor: c.vendor, model: c.model, vramMib: c.vram ?? null })),
    cpuLoadPct: load ? Math.round(load.currentLoad * 10) / 10 : null,
    memory: memory ? { totalMib: mib(memory.total), usedMib: mib(memory.active) } : null,
    disks: disks.map((d) => ({ mount: d.mount, sizeGib: gib(d.size), usedGib: gib(d.used) })),
  };
}

/** How long the machine's samples are kept for its lines. */
const HISTORY_MS = 10 * 60_000;

/** The samples of the last ten minutes with this one added, each as shares. */
export function withPoint(history: SystemPoint[], sample: Omit<SystemSample, 'history'>, t: number): SystemPoint[] {
  const point: SystemPoint = {
    t,
    cpu: sample.cpuLoadPct === null ? null : sample.cpuLoadPct / 100,
    memory: sample.memory && sample.memory.totalMib ? sample.memory.usedMib / sample.memory.totalMib : null,
    disks: Object.fromEntries(sample.disks.filter((d) => d.sizeGib > 0).map((d) => [d.mount, d.usedGib / d.sizeGib])),
  };
  return [...history.filter((p) => p.t > t - HISTORY_MS), point];
}

/** The disk holding `path`: the mount that is its longest prefix. */
export function diskOf<T extends { mount: string }>(disks: T[], path: string): T | undefined {
  return disks.filter((d) => path === d.mount || path.startsWith(d.mount.endsWith('/') ? d.mount : `${d.mount}/`)).sort((a, b) => b.mount.length - a.mount.length)[0];
}

/** One sample of this machine: NVIDIA GPUs by nvidia-smi, the rest by systeminformation. */
export async function sampleMachine(command = 'nvidia-smi'): Promise<MachineSample> {
  const problems: string[] = [];
  const [gpus, processes] = await Promise.all([
    runOnce(command, gpuQueryArgs()).then(parseGpus, (error: Error) => (problems.push(error.message), [] as GpuReading[])),
    runOnce(command, appsQueryArgs).then(parseProcesses, () => [] as GpuProcess[]),
  ]);
  const system = await sampleSystem(gpus.length === 0);
  if (gpus.length === 0 && system.otherGpus.length === 0) problems.push('no GPU found on this machine');
  return { host: LOCAL, t: Date.now(), gpus, processes, ...system, problems };
}
