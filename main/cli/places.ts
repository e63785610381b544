// The places one CLI command reads, through what the app uses: the host registry (one connection a host,
// its HostContext) and the root indexes (a local root's read workers and cache, a remote root's
// snapshot), so `status ALIAS:/root` gives the numbers the window gives.
import { dirname, resolve } from 'node:path';
import type { CellSummary, Problem } from '../../shared/model';
import type { HostStatus } from '../../shared/contract';
import type { CellRead, ReadContext } from '../../runners';
import { cellAt } from '../scan';
import { readCell, summaryOf } from '../../runners/read';
import type { CellContext, ContextOf } from '../place/context';
import { HostRegistry } from '../place/registry';
import { defaultConfigDir, defaultDataDir } from '../paths';
import { loadPrices, priced, shippedPrices, type Prices } from '../prices';
import { ReaderPool } from '../roots/pool';
import { openIndex } from '../roots/open-index';
import { formatAddress, isLocal, parseAddress } from '../../shared/address';
import { sideOf, splitAddress, type Side } from '../compare/paired';
import { append } from '../../shared/arrays';
import { rivalsOf, withRivals } from '../../shared/board';
import { NotFoundError } from '../../shared/errors';

export interface PlacesOptions {
  /** Add an unknown SSH host key instead of refusing it. */
  acceptNewHostKey?: boolean;
  /** Told when an SSH host's connection changes state (drops, reconnects, fails). */
  onHostStatus?: (status: HostStatus) => void;
  /** Where local roots' index caches are (default: the user's data folder). */
  dataDir?: string;
}

/** The cells of the roots a command named, and the problems of the roots themselves. */
export interface Listing {
  cells: CellSummary[];
  problems: Problem[];
}

export class CommandPlaces {
  private readonly hosts: HostRegistry;
  private workers: ReaderPool | undefined;
  private prices: Promise<Prices> | undefined;

  constructor(private readonly options: PlacesOptions = {}) {
    const told = new Map<string, string>();
    this.hosts = new HostRegistry(
      (statuses) => {
        for (const status of statuses) {
          const key = `${status.state}\0${status.problem?.message ?? ''}`;
          if (told.get(status.alias) === key) continue;
          told.set(status.alias, key);
          options.onHostStatus?.(status);
        }
      },
      { acceptNewHostKey: options.acceptNewHostKey, timeoutMs: 15_000 },
    );
  }

  /** The read workers, started when first needed. */
  get pool(): ReaderPool {
    return (this.workers ??= new ReaderPool());
  }

  get contextOf(): ContextOf {
    return this.hosts.contextOf;
  }

  /** The host's one connection, up; a host that cannot be reached is a NotFoundError saying why. */
  private async connected(host: string): Promise<void> {
    await this.hosts.contextOf({ host }).ready().catch((error: Error) => Promise.reject(new NotFoundError(error.message)));
  }

  /** A local path, or `ssh://ALIAS/abs/path` or `ALIAS:/abs/path` for a host of ~/.ssh/config. */
  async open(address: string): Promise<CellContext> {
    const { host, path } = parseAddress(address);
    await this.connected(host);
    const dir = isLocal(host) ? resolve(address) : path;
    return { context: this.hosts.contextOf({ host }), dir, where: formatAddress({ host, path: dir }) };
  }

  /** Where launch scripts run on the host, over this command's one connection to it. */
  async shell(alias: string) {
    await this.connected(alias);
    return this.hosts.contextOf({ host: alias }).shell();
  }

  /**
   * Each address is a cell, or a runs root whose cells are read (to depth 3), as the app's index reads
   * it: a local root by the read workers (a cell unchanged since the data folder's cache is not read
   * again), a remote one from one snapshot of the root; each row priced as the window prices it
   * (prices.yml). A root that is missing or unreadable is a NotFoundError.
   */
  async listCells(addresses: string[]): Promise<Listing> {
    // Read while the first root is: priced once it is listed.
    const pricing = (this.prices ??= loadPrices(shippedPrices(), defaultConfigDir()));
    const listing: Listing = { cells: [], problems: [] };
    for (const address of addresses) {
      const { host, path } = parseAddress(address);
      if (!isLocal(host)) await this.connected(host);
      // A cell that is a file (a rollouts file) is read as itself: there is no folder to index.
      const target = await this.open(address);
      const kind = (await target.context.read().fs.stat(target.dir))?.kind;
      if (kind !== 'dir') {
        // Nothing there may still be a collection whose rollouts are not written yet; else it is a missing root.
        const read = await readCellAt(target).catch((error: Error) => (kind === undefined && error instanceof NotFoundError ? null : Promise.reject(error)));
        if (read) {
          listing.cells.push(priced(summaryOf(read, dirname(target.dir)), await pricing));
          continue;
        }
      }
      const root = isLocal(host) ? resolve(address) : formatAddress({ host, path });
      const index = openIndex(root, { pool: this.pool, hosts: this.hosts }, () => undefined, () => undefined, { watch: false, rescanMs: false, logsWithRows: true, cacheDir: this.options.dataDir ?? defaultDataDir() });
      try {
        await index.start();
        const status = index.status('command line');
        if (status.state !== 'ok') throw new NotFoundError(status.problems.map((p) => `${p.file}: ${p.message}`).join('; ') || `${root} could not be listed`);
        const prices = await pricing;
        append(listing.cells, index.list().sort((a, b) => a.path.localeCompare(b.path)).map((row) => priced(row, prices)));
        append(listing.problems, status.problems);
      } finally {
        await index.close();
      }
    }
    const rivals = rivalsOf(listing.cells);
    return { cells: listing.cells.map((cell) => withRivals(cell, rivals.get(cell.id))), problems: [...(await pricing).problems, ...listing.problems] };
  }

  close(): void {
    void this.workers?.close();
    this.hosts.close();
  }
}

export async function withPlaces<T>(options: PlacesOptions, use: (places: CommandPlaces) => Promise<T>): Promise<T> {
  const places = new CommandPlaces(options);
  try {
    return await use(places);
  } finally {
    places.close();
  }
}

/** The cell at a path, read (`cellAt` finds it). */
export async function readCellAt({ context, dir, where }: CellContext): Promise<CellRead> {
  const ctx = context.read();
  const found = await cellAt(ctx.fs, dir, where);
  return readCell(found.dir, found.format, ctx);
}

/** The cell at an address, or null where nothing there is a cell (NotFoundError). */
async function cellIfAny(places: CommandPlaces, address: string): Promise<{ read: CellRead; ctx: ReadContext } | null> {
  try {
    const target = await places.open(address);
    return { read: await readCellAt(target), ctx: target.context.read() };
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/**
 * One side of a paired test as a command names it (a cell, CELL@vNNN, FILE@AGENT), read where it lives.
 * An address with an `@` that is itself a cell is that cell (splitAddress).
 */
export async function readSideAt(places: CommandPlaces, address: string): Promise<Side> {
  const { cell, version } = splitAddress(address);
  const whole = version === null ? null : await cellIfAny(places, address);
  if (whole) return sideOf(whole.read, null, whole.ctx);
  const target = await places.open(cell);
  return sideOf(await readCellAt(target), version, target.context.read());
}
