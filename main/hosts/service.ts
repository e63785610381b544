// The SSH hosts of the runs roots: their connections (the registry), nvidia-smi on each connected host,
// and the contract's host calls.
import type { GpuStatus } from '../../shared/cell-detail';
import { problem } from '../../shared/model';
import type { Backend } from '../../shared/contract';
import type { EventHub } from '../events';
import { startGpu, type GpuFeed } from '../gpu/history';
import { parseGpus, type GpuReading } from '../gpu/parse';
import { gpuQueryArgs } from '../gpu/sampler';
import { shellQuote } from '../../shared/quote';
import { remoteShell, type Shell } from '../launch/shell';
import { HostRegistry, type RegistryOptions } from './registry';

type HostCalls = Pick<Backend, 'listHosts' | 'acceptHostKey' | 'unlockHostKey' | 'reconnectHost'>;

export class HostsService implements HostCalls {
  readonly registry: HostRegistry;
  private readonly gpus = new Map<string, GpuFeed>();
  private readonly connected = new Set<string>();

  constructor(
    private readonly events: EventHub,
    /** The nvidia-smi to run on each host (default: the one on the host's PATH). */
    private readonly nvidiaSmi = 'nvidia-smi',
    registryOptions: RegistryOptions = {},
  ) {
    this.registry = new HostRegistry((statuses) => {
      events.emit('hostsChanged', statuses);
      for (const [alias, feed] of this.gpus) {
        if (statuses.some((h) => h.alias === alias)) continue;
        feed.stop();
        this.gpus.delete(alias);
      }
      const nowConnected = new Set(statuses.filter((h) => h.state === 'connected').map((h) => h.alias));
      const just = [...nowConnected].filter((alias) => !this.connected.has(alias));
      this.connected.clear();
      nowConnected.forEach((alias) => this.connected.add(alias));
      for (const alias of just) if (!this.gpus.has(alias)) this.gpus.set(alias, this.sampleGpus(alias));
    }, registryOptions);
  }

  private sampleGpus(alias: string): GpuFeed {
    const host = this.registry.get(alias);
    return startGpu({
      command: this.nvidiaSmi,
      onSample: (sample) => this.events.emit('gpuSample', { ...sample, host: alias }),
      remote: {
        spawn: (args) => host.spawn(this.nvidiaSmi, args),
        once: async (args) => (await host.exec(shellQuote([this.nvidiaSmi, ...args]))).stdout,
        // A fleet's GPUs every 2 s (fifty hosts at 1 Hz cost the app more than a twentieth of a core), and as
        // each ask starts a shell on the host (its .bashrc included), per-process memory every 30 s.
        intervalMs: 2000,
        processesEveryMs: 30_000,
      },
    });
  }

  gpuStatus(alias: string): GpuStatus {
    return this.gpus.get(alias)?.status() ?? { available: false, problems: [problem(alias, `${alias} is not connected`)], history: [] };
  }

  /** A shell on the host over its connection, once connected; rejects when it cannot be reached in 20 s. */
  async shell(alias: string): Promise<Shell> {
    const host = this.registry.get(alias);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${alias} did not connect in 20 s (${host.status.problem?.message ?? host.status.state})`)), 20_000)));
    await Promise.race([host.ready(), late]).finally(() => clearTimeout(timer));
    return remoteShell(alias, (command) => host.exec(command));
  }

  /** A host's GPUs now: its sampler's latest sample, else nvidia-smi once over its connection. */
  async gpuReadings(alias: string): Promise<GpuReading[]> {
    const latest = this.gpus.get(alias)?.latest();
    if (latest) return latest;
    const shell = await this.shell(alias);
    const answer = await shell.run(shellQuote([this.nvidiaSmi, ...gpuQueryArgs()]));
    return answer.code === 0 ? parseGpus(answer.stdout) : [];
  }

  async listHosts() {
    return this.registry.statuses();
  }

  async acceptHostKey(alias: string) {
    this.registry.acceptKey(alias);
  }

  async unlockHostKey(alias: string, keyFile: string, passphrase: string) {
    this.registry.unlock(alias, keyFile, passphrase);
  }

  async reconnectHost(alias: string) {
    this.registry.reconnect(alias);
  }

  close(): void {
    this.gpus.forEach((feed) => feed.stop());
    this.registry.close();
  }
}
