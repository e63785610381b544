// How the CLI reaches cells: local paths, and paths on SSH hosts, each host over one connection for the
// whole command however many of its cells the command reads.
import { resolve } from 'node:path';
import type { Cell, CellSummary } from '../shared/model';
import { detectFormat, localFs, type CellRead } from '../runners';
import { readCell, summaryOf } from '../runners/read';
import { localCellContext, remoteCellContext, type CellContext, type ContextOf } from './cell-context';
import { mapLimited, PARALLEL_IO } from './concurrency';
import { NotFoundError } from './errors';
import { firstScan } from './roots/first-scan';
import { IndexCache } from './roots/index-cache';
import { ReaderPool } from './roots/pool';
import { defaultDataDir } from './paths';
import { LogCache } from '../runners/common/logs';
import { findCells, type Found } from './scan';
import { parseRemote } from './ssh/config';
import { discoveryCommand, parseDiscovery } from './ssh/discover';
import { hostWithFeed, type HostFeed } from './ssh/feed';
import type { HostStatus, RemoteHost } from './ssh/host';
import { remoteShell, type Shell } from './launch/shell';
import { append } from '../shared/arrays';

/** A cell's fields exactly as runners/FORMATS.md lists them, in that order, whatever else the model carries. */
export function cellJson(cell: Cell): Cell {
  const { id, host, path, format, name, board, state, budget, episodes, success_rate, tokens, cost_usd_estimate, problems } = cell;
  return { id, host, path, format, name, board, state, budget, episodes, success_rate, tokens, cost_usd_estimate, problems };
}

/** Where a CLI address points: a path on this machine or on an SSH host, with the means to read it. */
export interface Target {
  /** The absolute path on its host. */
  path: string;
  context: CellContext;
  /** How messages name it: `ALIAS:/path`, or the local path. */
  where: string;
  /** The cells below a runs root (one remote command on a host). */
  find(root: string): Promise<Found[]>;
}

export interface TargetOptions {
  /** Add an unknown SSH host key instead of refusing it. */
  acceptNewHostKey?: boolean;
  /** Told when an SSH host's connection drops, reconnects or fails. */
  onHostStatus?: (status: HostStatus) => void;
  /** Where local roots' index caches are (default: the user's data folder). */
  dataDir?: string;
}

/** The places one command reads: this machine, and each SSH host it names, connected once. */
export class Places {
  private readonly local = localCellContext();
  private readonly hosts = new Map<string, Promise<{ host: RemoteHost; context: CellContext }>>();

  constructor(private readonly options: TargetOptions = {}) {}

  private readonly contexts = new Map<string, CellContext>();
  private readonly opened: RemoteHost[] = [];
  private readonly feeds: HostFeed[] = [];
  private pool: ReaderPool | undefined;

  /** The host's one connection, opened on first use; every caller waits for the same one. */
  private host(alias: string): Promise<{ host: RemoteHost; context: CellContext }> {
    let entry = this.hosts.get(alias);
    if (!entry) {
      // Its feed watches only what this command follows (a cell for tail).
      const { host, feed } = hostWithFeed(alias, { acceptNewHostKey: this.options.acceptNewHostKey, timeoutMs: 15_000, onStatus: this.options.onHostStatus });
      this.opened.push(host);
      this.feeds.push(feed);
      const context = remoteCellContext(host, feed);
      this.contexts.set(alias, context);
      entry = host.ready().then(
        () => ({ host, context }),
        (error: Error) => Promise.reject(new NotFoundError(error.message)),
      );
      this.hosts.set(alias, entry);
    }
    return entry;
  }

  /** A shell on an SSH host, over this command's one connection to it. */
  async shell(alias: string): Promise<Shell> {
    const { host } = await this.host(alias);
    return remoteShell(alias, (command) => host.exec(command));
  }

  /** The context of a cell this command has read: its host is connected already. */
  readonly contextOf: ContextOf = (cell) => {
    if (cell.host === 'local') return this.local;
    const context = this.contexts.get(cell.host);
    if (!context) throw new NotFoundError(`${cell.host} is not connected`);
    return context;
  };

  /** A local path, or `ssh://ALIAS/abs/path` or `ALIAS:/abs/path` for a host of ~/.ssh/config. */
  async open(address: string): Promise<Target> {
    const remote = parseRemote(address);
    if (!remote) {
      const path = resolve(address);
      return { path, context: this.local, where: path, find: (root) => findCells(localFs, root, []) };
    }
    const { host, context } = await this.host(remote.alias);
    return {
      path: remote.path,
      context,
      where: `${remote.alias}:${remote.path}`,
      find: async (root) => parseDiscovery((await host.exec(discoveryCommand(root))).stdout, root),
    };
  }

  /**
   * Each address is a cell, or a runs root whose cells are read (to depth 3), their event logs checked
   * for malformed lines: local ones by the read workers as the app's index reads them (a cell unchanged
   * since the cache in the data folder was saved is not read again); remote ones over SFTP.
   */
  async listCells(addresses: string[]): Promise<CellSummary[]> {
    const rows: CellSummary[] = [];
    for (const address of addresses) {
      const target = await this.open(address);
      const ctx = target.context.read();
      const info = await ctx.fs.stat(target.path);
      if (!info) throw new NotFoundError(`${target.where}: no such file or folder`);
      if (info.kind !== 'dir') throw new NotFoundError(`${target.where} is not a folder`);
      if (target.context.host === 'local') {
        append(rows, await this.listLocal(target.path));
        continue;
      }
      const found = await target.find(target.path);
      const logs = new LogCache(ctx.fs);
      const reads = await mapLimited(found, PARALLEL_IO, ({ dir, format }) => readCell(dir, format, ctx, { logs }));
      append(rows, reads.map((read) => summaryOf(read, target.where)));
    }
    return rows;
  }

  private async listLocal(root: string): Promise<CellSummary[]> {
    this.pool ??= new ReaderPool();
    const pool = this.pool;
    const cache = await IndexCache.open(this.options.dataDir ?? defaultDataDir(), root);
    const rows = new Map<string, CellSummary>();
    const { read } = await firstScan(pool, root, cache, (batch) => batch.forEach((row) => rows.set(row.path, row)), () => undefined, true);
    // Only what was read is news to the cache: a listing that read nothing leaves it as it is.
    if (read.length) await cache.save(rows.values(), (files) => pool.saveLooked([...rows.keys()], files)).catch(() => undefined);
    return [...rows.values()].sort((a, b) => a.path.localeCompare(b.path));
  }

  close(): void {
    void this.pool?.close();
    this.feeds.forEach((feed) => feed.close());
    this.feeds.length = 0;
    this.opened.forEach((host) => host.close());
    this.opened.length = 0;
    this.hosts.clear();
    this.contexts.clear();
  }
}

export async function withPlaces<T>(options: TargetOptions, use: (places: Places) => Promise<T>): Promise<T> {
  const places = new Places(options);
  try {
    return await use(places);
  } finally {
    places.close();
  }
}

/** The cell at a target's path, read; NotFoundError when the path does not exist or is no cell. */
export async function readTargetCell(target: Target): Promise<CellRead> {
  const ctx = target.context.read();
  const entries = await ctx.fs.list(target.path);
  if (!entries) throw new NotFoundError(`${target.where}: no such folder`);
  const format = await detectFormat(ctx.fs, target.path, new Set(entries.filter((e) => e.kind === 'file').map((e) => e.name)));
  if (!format) throw new NotFoundError(`${target.where} is not a cell: no run.json of a known runner, nor a Harbor job's config.json`);
  return readCell(target.path, format, ctx);
}
