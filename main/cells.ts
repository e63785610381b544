import { resolve } from 'node:path';
import type { Cell } from '../shared/model';
import { detectFormat, JsonReader, localFs, type CellRead, type ReadContext } from '../runners';
import { readCell } from '../runners/read';
import { mapLimited, PARALLEL_IO } from './concurrency';
import { findCells } from './scan';

export function localContext(json = new JsonReader(localFs)): ReadContext {
  return { fs: localFs, json, now: Date.now(), host: 'local' };
}

export class NotFoundError extends Error {
  override name = 'NotFoundError';
}

/** A cell's fields exactly as formats.md lists them, in that order, whatever else the model carries. */
export function cellJson(cell: Cell): Cell {
  const { id, host, path, format, name, board, state, budget, episodes, success_rate, tokens, cost_usd_estimate, problems } = cell;
  return { id, host, path, format, name, board, state, budget, episodes, success_rate, tokens, cost_usd_estimate, problems };
}

/** The cell at `path`, read; NotFoundError when the path does not exist or is no cell. */
export async function readCellAt(path: string, ctx: ReadContext): Promise<CellRead> {
  const dir = resolve(path);
  const entries = await ctx.fs.list(dir);
  if (!entries) throw new NotFoundError(`${dir}: no such folder`);
  const format = await detectFormat(ctx.fs, dir, new Set(entries.filter((e) => e.kind === 'file').map((e) => e.name)));
  if (!format) throw new NotFoundError(`${dir} is not a cell: no run.json of a known runner, nor a Harbor job's config.json`);
  return readCell(dir, format, ctx);
}

/** Each path is a cell, or a runs root whose cells are read (to depth 3). */
export async function readCellsAt(paths: string[], ctx: ReadContext): Promise<CellRead[]> {
  const reads: CellRead[] = [];
  for (const path of paths) {
    const dir = resolve(path);
    const info = await ctx.fs.stat(dir);
    if (!info) throw new NotFoundError(`${dir}: no such file or folder`);
    if (info.kind !== 'dir') throw new NotFoundError(`${dir} is not a folder`);
    const found = await findCells(ctx.fs, dir, []);
    reads.push(...(await mapLimited(found, PARALLEL_IO, ({ dir: cellDir, format }) => readCell(cellDir, format, ctx))));
  }
  return reads;
}

