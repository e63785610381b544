// This machine's GPUs (one long-lived nvidia-smi), an SSH host's (through the hosts service), and the
// machine's CPU, memory and disks.
import type { GpuReading, GpuSample, GpuStatus, SystemSample } from '../../shared/cell-detail';
import type { EventHub } from '../events';
import type { HostsService } from '../hosts/service';
import { processGroupOf } from '../launch/pgid';
import { startGpu, type GpuFeed } from './history';
import { parseGpus } from './parse';
import { gpuQueryArgs, runOnce } from './sampler';
import { diskOf, sampleSystem } from './system';

export interface GpuOptions {
  /** The nvidia-smi to sample with; false: no sampler (tests). */
  nvidiaSmi: string | false;
  events: EventHub;
  hosts: HostsService;
  /** The launched run whose process group a pid belongs to. */
  runOfGroup(pgid: number): string | undefined;
  /** The local runs roots, for the disks they are on. */
  rootPaths(): string[];
}

export class GpuService {
  private readonly feed: GpuFeed;
  private readonly listeners: ((sample: GpuSample) => void)[] = [];

  constructor(private readonly options: GpuOptions) {
    this.feed = startGpu({
      command: options.nvidiaSmi,
      onSample: (sample) => {
        this.listeners.forEach((listener) => listener(sample));
        options.events.emit('gpuSample', sample);
      },
      runOf: (pid) => options.runOfGroup(processGroupOf(pid) ?? -1),
    });
  }

  /** Told of each sample of this machine. */
  onSample(listener: (sample: GpuSample) => void): void {
    this.listeners.push(listener);
  }

  /** This machine's GPUs now: the latest sample, else one nvidia-smi run (the Launch dialog may open first). */
  async readings(): Promise<GpuReading[]> {
    const latest = this.feed.latest();
    if (latest || this.options.nvidiaSmi === false) return latest ?? [];
    return runOnce(this.options.nvidiaSmi, gpuQueryArgs()).then(parseGpus, () => []);
  }

  async gpuStatus(host?: string): Promise<GpuStatus> {
    return host === undefined || host === 'local' ? this.feed.status() : this.options.hosts.gpuStatus(host);
  }

  async systemStatus(): Promise<SystemSample> {
    const system = await sampleSystem(!this.feed.latest());
    const disks = this.options.rootPaths().map((root) => diskOf(system.disks, root)).filter((d) => d !== undefined);
    return { ...system, disks: [...new Map(disks.map((d) => [d.mount, d])).values()] };
  }

  close(): void {
    this.feed.stop();
  }
}
