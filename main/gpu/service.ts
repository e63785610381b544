// The GPUs of every place: one long-lived nvidia-smi on this machine, one on each connected SSH host (over
// its HostContext), and this machine's CPU, memory and disks.
import type { GpuReading, GpuSample, GpuStatus, SystemPoint, SystemSample } from '../../shared/machine';
import type { HostStatus } from '../../shared/contract';
import { problem } from '../../shared/model';
import type { EventHub } from '../events';
import type { Assembly } from '../assembly';
import { programOutput } from '../place/context';
import { processGroupOf } from '../launch/pgid';
import { startGpu, type GpuFeed } from './history';
import { diskOf, sampleSystem, withPoint } from './system';
import { hostPresence } from '../../shared/presence';
import { LOCAL, isLocal } from '../../shared/address';

export interface GpuOptions {
  /** The places and the nvidia-smi of each (false: no sampler, in tests). */
  parts: Pick<Assembly, 'contextOf' | 'nvidiaSmi' | 'readings'>;
  events: EventHub;
  /** The launched run whose process group a pid belongs to. */
  runOfGroup(pgid: number): string | undefined;
  /** The local runs roots, for the disks they are on. */
  rootPaths(): string[];
}

/**
 * How often an SSH host's GPUs are sampled: every 2 s once a window asked for them (fifty hosts at 1 Hz cost
 * the app more than a twentieth of a core), every 10 s before (their history and the launch guard's alerts
 * go on, at a fifth of the cost).
 */
const SHOWN_MS = 2000;
const UNSHOWN_MS = 10_000;

export class GpuService {
  /** A feed per place: `local`, and each SSH host while it is connected. */
  private readonly feeds = new Map<string, GpuFeed>();
  /** The SSH hosts whose GPUs a window asked for. */
  private readonly shown = new Set<string>();
  private readonly listeners: ((sample: GpuSample) => void)[] = [];
  private readonly unsubscribe: () => void;
  /** This machine's CPU, memory and disks over the last ten minutes, as the GPU view asked for them. */
  private systemHistory: SystemPoint[] = [];

  constructor(private readonly options: GpuOptions) {
    this.feeds.set(LOCAL, this.sample(LOCAL));
    this.unsubscribe = options.events.on('hostsChanged', (statuses) => this.follow(statuses));
  }

  private sample(host: string): GpuFeed {
    const context = this.options.parts.contextOf({ host });
    const command = this.options.parts.nvidiaSmi(host);
    const local = isLocal(host);
    return startGpu({
      command,
      onSample: (sample) => {
        if (local) this.listeners.forEach((listener) => listener(sample));
        this.options.events.emit('gpuSample', local ? sample : { ...sample, host });
      },
      runOf: local ? (pid) => this.options.runOfGroup(processGroupOf(pid) ?? -1) : undefined,
      place: {
        spawn: (args) => context.spawn(command as string, args),
        once: (args) => programOutput(context, command as string, args),
        // Per-process memory (an nvidia-smi run of its own each time) every 30 s.
        ...(local ? {} : { intervalMs: this.shown.has(host) ? SHOWN_MS : UNSHOWN_MS, processesEveryMs: 30_000 }),
      },
    });
  }

  /** Hosts that just connected are sampled; hosts no longer known stop being. */
  private follow(statuses: HostStatus[]): void {
    for (const [host, feed] of this.feeds) {
      if (isLocal(host) || statuses.some((h) => h.alias === host)) continue;
      feed.stop();
      this.feeds.delete(host);
    }
    for (const status of statuses) if (hostPresence(status.state) === 'live' && !this.feeds.has(status.alias)) this.feeds.set(status.alias, this.sample(status.alias));
  }

  /** A window asked for these hosts' GPUs: they are sampled at its pace from now on. */
  show(hosts: string[]): void {
    for (const host of hosts) {
      if (isLocal(host) || this.shown.has(host)) continue;
      this.shown.add(host);
      this.feeds.get(host)?.pace(SHOWN_MS);
    }
  }

  /** Told of each sample of this machine. */
  onSample(listener: (sample: GpuSample) => void): void {
    this.listeners.push(listener);
  }

  /** A place's GPUs now: its latest sample, else one nvidia-smi run there (the Launch dialog may open first). */
  async readings(host = LOCAL): Promise<GpuReading[]> {
    return this.feeds.get(host)?.latest() ?? this.options.parts.readings(host);
  }

  async gpuStatus(host = LOCAL): Promise<GpuStatus> {
    return this.feeds.get(host)?.status() ?? { available: false, problems: [problem(host, `${host} is not connected`)], history: [] };
  }

  async systemStatus(): Promise<SystemSample> {
    const local = this.feeds.get(LOCAL);
    const system = await sampleSystem(!local?.latest());
    const disks = this.options.rootPaths().map((root) => diskOf(system.disks, root)).filter((d) => d !== undefined);
    const sample = { ...system, disks: [...new Map(disks.map((d) => [d.mount, d])).values()] };
    this.systemHistory = withPoint(this.systemHistory, sample, Date.now());
    return { ...sample, history: this.systemHistory };
  }

  close(): void {
    this.unsubscribe();
    this.feeds.forEach((feed) => feed.stop());
    this.feeds.clear();
  }
}
