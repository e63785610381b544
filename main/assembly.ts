// The parts every entry point builds the same way: the places (one registry: this machine and each SSH
// host on one connection), the read workers (of local roots; of remote cells and open ones), the prices,
// the nvidia-smi of each place and the launch service on them. The core composes the window's services on
// an assembly; a CLI command uses one for its one look, then closes it.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HostStatus } from '../shared/contract';
import type { GpuReading } from '../shared/machine';
import { isLocal } from '../shared/address';
import { parseGpus } from './gpu/parse';
import { gpuQueryArgs } from './gpu/sampler';
import type { LaunchService, LaunchOptions } from './launch/service';
import { packageRoot } from './paths';
import { programOutput, type ContextOf } from './place/context';
import { shellOn } from './launch/shell';
import { HostRegistry, type RegistryOptions } from './place/registry';
import { PriceList, shippedPrices } from './prices';
import { ReaderPool } from './roots/pool';
import { OpenCellReader } from './watch/open-reader';
import { scorerPicksIn } from './settings';
import type { ScorerPicks } from '../runners';

export interface AssemblyOptions {
  configDir: string;
  dataDir: string;
  /** The nvidia-smi of this machine; false: none (tests). */
  nvidiaSmi: string | false;
  /** The nvidia-smi run on SSH hosts (default: the one on the host's PATH). */
  remoteNvidiaSmi?: string;
  hosts?: RegistryOptions;
  /** Told of every host's status each time one changes. */
  onHosts(statuses: HostStatus[]): void;
  /** The limits of the workers reading remote and open cells (tests make them small). */
  openCells?: { heapMb?: number; stallMs?: number };
}

export class Assembly {
  readonly hosts: HostRegistry;
  private workers: ReaderPool | undefined;
  private cellReader: OpenCellReader | undefined;
  private priceList: Promise<PriceList> | undefined;
  private launchService: Promise<LaunchService> | undefined;

  /**
   * The scorer picked for each Inspect log's outcomes (settings), as every reader of these places reads them;
   * new picks (saved by whoever sets them) are taken by every read from then on.
   */
  scorers: ScorerPicks;

  constructor(private readonly options: AssemblyOptions) {
    this.hosts = new HostRegistry(options.onHosts, options.hosts);
    this.scorers = scorerPicksIn(options.configDir);
    this.hosts.scorers = () => this.scorers;
  }

  get contextOf(): ContextOf {
    return this.hosts.contextOf;
  }

  /** The read workers of local roots, started when first needed. */
  get pool(): ReaderPool {
    if (!this.workers) {
      this.workers = new ReaderPool();
      this.workers.scorers = () => this.scorers;
    }
    return this.workers;
  }

  /** The workers reading cells on SSH hosts (remote roots' rows) and the cells open in the window, started when first asked. */
  get cells(): OpenCellReader {
    return (this.cellReader ??= new OpenCellReader((host) => this.contextOf({ host }).read().fs, { ...this.options.openCells, scorers: () => this.scorers }));
  }

  /** The prices of prices.yml over the shipped ones, kept current while the assembly is open. */
  prices(): Promise<PriceList> {
    return (this.priceList ??= (async () => {
      const list = new PriceList(shippedPrices(), this.options.configDir);
      await list.load();
      return list;
    })());
  }

  /** The nvidia-smi a place runs; false where there is none to run. */
  nvidiaSmi(host: string): string | false {
    return isLocal(host) ? this.options.nvidiaSmi : (this.options.remoteNvidiaSmi ?? 'nvidia-smi');
  }

  /** A place's GPUs by one nvidia-smi run there; none where it cannot run. */
  async readings(host: string): Promise<GpuReading[]> {
    const command = this.nvidiaSmi(host);
    return command === false ? [] : programOutput(this.contextOf({ host }), command, gpuQueryArgs()).then(parseGpus, () => []);
  }

  /**
   * The launch service on these places (made once): `watch` looks at launched runs every 2 s (the app);
   * without, once (a command). What the app knows better (sampled GPUs, its roots) comes in `wiring`.
   */
  launcher(watch = false, wiring: Partial<Pick<LaunchOptions, 'gpus' | 'watchCell' | 'cellListedAs' | 'onRuns'>> = {}): Promise<LaunchService> {
    // Loaded when first asked for: its profiles' parser and schema are most of a command's start (yaml, zod).
    return (this.launchService ??= import('./launch/service').then(({ LaunchService }) => LaunchService.create(
      {
        configDir: this.options.configDir,
        packageRoot: packageRoot(dirname(fileURLToPath(import.meta.url))),
        dataDir: this.options.dataDir,
        gpus: (host) => this.readings(host),
        shell: async (host) => shellOn(this.contextOf({ host })),
        watchCell: async () => null,
        cellListedAs: () => null,
        ...wiring,
      },
      watch,
    )));
  }

  async close(): Promise<void> {
    (await this.launchService?.catch(() => undefined))?.close();
    (await this.priceList)?.close();
    this.hosts.close();
    await Promise.all([this.workers?.close(), this.cellReader?.close()]);
  }
}
