// The places one CLI command reads, through what the app uses: its assembly (the host registry, the read
// workers, the prices) and the root indexes (a local root's read workers and cache, a remote root's
// snapshot), so `status ALIAS:/root` gives the numbers the window gives.
import { dirname, resolve } from 'node:path';
import type { CellSummary, Problem } from '../../shared/model';
import type { HostStatus } from '../../shared/contract';
import type { CellRead } from '../../runners';
import { cellAt } from '../scan';
import { readCell, summaryOf } from '../../runners/read';
import type { CellContext } from '../place/context';
import { Assembly } from '../assembly';
import { defaultConfigDir, defaultDataDir } from '../paths';
import { openIndex } from '../roots/open-index';
import { formatAddress, isLocal, parseAddress } from '../../shared/address';
import { sideAt, sideOf, type Side } from '../compare/paired';
import { append } from '../../shared/arrays';
import { rivalsOf, withRivals } from '../../shared/board';
import { NotFoundError } from '../../shared/errors';
import { mapLimited } from '../concurrency';

export interface PlacesOptions {
  /** Add an unknown SSH host key instead of refusing it. */
  acceptNewHostKey?: boolean;
  /** Told when an SSH host's connection changes state (drops, reconnects, fails). */
  onHostStatus?: (status: HostStatus) => void;
}

/** The cells of the roots a command named, and the problems of the roots themselves. */
export interface Listing {
  cells: CellSummary[];
  problems: Problem[];
}

/** A command's assembly (the app's registry, read workers, prices, launch service), closed when `use` is done. */
export async function withPlaces<T>(options: PlacesOptions, use: (places: Assembly) => Promise<T>): Promise<T> {
  const places = commandPlaces(options);
  try {
    return await use(places);
  } finally {
    await places.close();
  }
}

/** The assembly of one command: each SSH host on one connection for the command, a host's changes told once each. */
export function commandPlaces(options: PlacesOptions): Assembly {
  const told = new Map<string, string>();
  return new Assembly({
    configDir: defaultConfigDir(),
    dataDir: defaultDataDir(),
    nvidiaSmi: process.env.CELLWATCH_NVIDIA_SMI ?? 'nvidia-smi',
    hosts: { acceptNewHostKey: options.acceptNewHostKey, timeoutMs: 15_000 },
    onHosts(statuses) {
      for (const status of statuses) {
        const key = `${status.state}\0${status.problem?.message ?? ''}`;
        if (told.get(status.alias) === key) continue;
        told.set(status.alias, key);
        options.onHostStatus?.(status);
      }
    },
  });
}

/** A local path, or `ssh://ALIAS/abs/path` or `ALIAS:/abs/path` for a host of ~/.ssh/config, its host connected; a host that cannot be reached is a NotFoundError saying why. */
export async function openAt(places: Assembly, address: string): Promise<CellContext> {
  const { host, path } = parseAddress(address);
  const context = places.contextOf({ host });
  await context.ready().catch((error: Error) => Promise.reject(new NotFoundError(error.message)));
  const dir = isLocal(host) ? resolve(address) : path;
  return { context, dir, where: formatAddress({ host, path: dir }) };
}

/** Roots listed at once: a command naming hundreds opens that many indexes and logins a few dozen at a time. */
const ROOTS_AT_ONCE = 32;

/**
 * Each address is a cell, or a runs root whose cells are read (to depth 3), as the app's index reads
 * it: a local root by the read workers (a cell unchanged since the data folder's cache is not read
 * again), a remote one from one snapshot of the root; each row priced as the window prices it
 * (prices.yml). A root that is missing or unreadable is a NotFoundError. `onRoot` hears each root's rows
 * as soon as they are read, before they are priced and rivals are known: a command may start on them.
 */
export async function listCellsAt(places: Assembly, addresses: string[], onRoot: (rows: CellSummary[]) => void = () => undefined): Promise<Listing> {
  // Read while the roots are: priced once each is listed.
  const pricing = places.prices();
  // The roots at once (each host's login and listing beside the others'), each to its end however another
  // fails; the cells in the order the roots were named, the first failure in that order what is thrown.
  const listed = await mapLimited(addresses, ROOTS_AT_ONCE, (address) =>
    listRoot(places, address, pricing, onRoot).then(
      (listing) => ({ listing }),
      (error: unknown) => ({ error }),
    ),
  );
  const listing: Listing = { cells: [], problems: [] };
  for (const root of listed) {
    if ('error' in root) throw root.error;
    append(listing.cells, root.listing.cells);
    append(listing.problems, root.listing.problems);
  }
  const rivals = rivalsOf(listing.cells);
  return { cells: listing.cells.map((cell) => withRivals(cell, rivals.get(cell.id))), problems: [...(await pricing).problems(), ...listing.problems] };
}

/** One address of `listCellsAt`: the cell it names, or its root's cells, priced. */
async function listRoot(places: Assembly, address: string, pricing: ReturnType<Assembly['prices']>, onRoot: (rows: CellSummary[]) => void): Promise<Listing> {
  // A cell that is a file (a rollouts file) is read as itself: there is no folder to index.
  const target = await openAt(places, address);
  const kind = (await target.context.read().fs.stat(target.dir))?.kind;
  if (kind !== 'dir') {
    // Nothing there may still be a collection whose rollouts are not written yet; else it is a missing root.
    const read = await readCellAt(target).catch((error: Error) => (kind === undefined && error instanceof NotFoundError ? null : Promise.reject(error)));
    if (read) return { cells: [(await pricing).price(summaryOf(read, dirname(target.dir)))], problems: [] };
  }
  const root = target.where;
  const index = openIndex(root, places, () => undefined, () => undefined, { watch: false, rescanMs: false, logsWithRows: true, cacheDir: defaultDataDir() });
  try {
    await index.start();
    const status = index.status('command line');
    if (status.state !== 'ok') throw new NotFoundError(status.problems.map((p) => `${p.file}: ${p.message}`).join('; ') || `${root} could not be listed`);
    const rows = index.list();
    onRoot(rows);
    const prices = await pricing;
    return { cells: rows.sort((a, b) => a.path.localeCompare(b.path)).map((row) => prices.price(row)), problems: status.problems };
  } finally {
    await index.close();
  }
}

/** The cell at a path, read (`cellAt` finds it). */
export async function readCellAt({ context, dir, where }: CellContext): Promise<CellRead> {
  const ctx = context.read();
  const found = await cellAt(ctx.fs, dir, where);
  return readCell(found.dir, found.format, ctx);
}

/**
 * One side of a paired test as a command names it (a cell, CELL@vNNN, FILE@AGENT), read where it lives:
 * the first reading of the address whose cell is there (sideAt).
 */
export function readSideAt(places: Assembly, address: string): Promise<Side> {
  return sideAt(address, async ({ cell, version }) => {
    const target = await openAt(places, cell);
    return sideOf(await readCellAt(target), version, target.context.read());
  });
}
