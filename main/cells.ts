import { resolve } from 'node:path';
import type { Cell } from '../shared/model';
import { detectFormat, JsonReader, localFs, type CellRead, type ReadContext } from '../runners';
import { readCell } from '../runners/read';
import { mapLimited, PARALLEL_IO } from './concurrency';
import { findCells, type Found } from './scan';
import { parseRemote } from './ssh/config';
import { discoveryCommand, parseDiscovery } from './ssh/discover';
import { RemoteHost, type HostStatus } from './ssh/host';
import { remoteContext } from './ssh/remote';

export function localContext(json = new JsonReader(localFs)): ReadContext {
  return { fs: localFs, json, now: Date.now(), host: 'local' };
}

export class NotFoundError extends Error {
  override name = 'NotFoundError';
}

/** A cell's fields exactly as runners/FORMATS.md lists them, in that order, whatever else the model carries. */
export function cellJson(cell: Cell): Cell {
  const { id, host, path, format, name, board, state, budget, episodes, success_rate, tokens, cost_usd_estimate, problems } = cell;
  return { id, host, path, format, name, board, state, budget, episodes, success_rate, tokens, cost_usd_estimate, problems };
}

/** Where a CLI address points: a path on this machine or on an SSH host, with the means to read it. */
export interface Target {
  /** The absolute path on its host. */
  path: string;
  ctx: ReadContext;
  /** How messages name it: `ALIAS:/path`, or the local path. */
  where: string;
  /** The cells below a runs root (one remote command on a host). */
  find(root: string): Promise<Found[]>;
  /** The SSH host, for followers that must outlive a dropped connection. */
  host: RemoteHost | null;
  close(): void;
}

export interface TargetOptions {
  /** Add an unknown SSH host key instead of refusing it. */
  acceptNewHostKey?: boolean;
  /** Told when an SSH host's connection drops, reconnects or fails. */
  onHostStatus?: (status: HostStatus) => void;
}

/** A local path, or `ssh://ALIAS/abs/path` or `ALIAS:/abs/path` for a host of ~/.ssh/config. */
export async function openTarget(address: string, options: TargetOptions = {}): Promise<Target> {
  const remote = parseRemote(address);
  if (!remote) {
    const path = resolve(address);
    return { path, ctx: localContext(), where: path, find: (root) => findCells(localFs, root, []), host: null, close: () => undefined };
  }
  const host = new RemoteHost(remote.alias, { acceptNewHostKey: options.acceptNewHostKey, timeoutMs: 15_000, onStatus: options.onHostStatus });
  try {
    await host.ready();
  } catch (error) {
    host.close();
    throw new NotFoundError((error as Error).message);
  }
  return {
    path: remote.path,
    ctx: remoteContext(host),
    where: `${remote.alias}:${remote.path}`,
    find: async (root) => parseDiscovery((await host.exec(discoveryCommand(root))).stdout),
    host,
    close: () => host.close(),
  };
}

export async function withTarget<T>(address: string, options: TargetOptions, use: (target: Target) => Promise<T>): Promise<T> {
  const target = await openTarget(address, options);
  try {
    return await use(target);
  } finally {
    target.close();
  }
}

/** The cell at a target's path, read; NotFoundError when the path does not exist or is no cell. */
export async function readTargetCell(target: Target): Promise<CellRead> {
  const entries = await target.ctx.fs.list(target.path);
  if (!entries) throw new NotFoundError(`${target.where}: no such folder`);
  const format = await detectFormat(target.ctx.fs, target.path, new Set(entries.filter((e) => e.kind === 'file').map((e) => e.name)));
  if (!format) throw new NotFoundError(`${target.where} is not a cell: no run.json of a known runner, nor a Harbor job's config.json`);
  return readCell(target.path, format, target.ctx);
}

export async function readCellAt(address: string, options: TargetOptions = {}): Promise<CellRead> {
  return withTarget(address, options, readTargetCell);
}

/** Each address is a cell, or a runs root whose cells are read (to depth 3), here or on an SSH host. */
export async function readCellsAt(addresses: string[], options: TargetOptions = {}): Promise<CellRead[]> {
  const reads: CellRead[] = [];
  for (const address of addresses) {
    await withTarget(address, options, async (target) => {
      const info = await target.ctx.fs.stat(target.path);
      if (!info) throw new NotFoundError(`${target.where}: no such file or folder`);
      if (info.kind !== 'dir') throw new NotFoundError(`${target.where} is not a folder`);
      const found = await target.find(target.path);
      reads.push(...(await mapLimited(found, PARALLEL_IO, ({ dir, format }) => readCell(dir, format, target.ctx))));
    });
  }
  return reads;
}
