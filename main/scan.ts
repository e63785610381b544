import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { realpath } from 'node:fs/promises';
import { type CellSummary, type FormatName, type Problem, type RootState, problem } from '../shared/model';
import { detectFormat, entryProblems, fileCellOf, fileCellsIn, whatIsACell, type CellFs } from '../runners';
import { NotFoundError } from '../shared/errors';
import { append } from '../shared/arrays';
import { mapLimited, PARALLEL_IO } from './concurrency';

/** Cells sit at most this many directories below a runs root. */
export const MAX_DEPTH = 3;
/** How deep a remote root is listed and watched: its cells, and within each its episodes' files. */
export const REMOTE_DEPTH = MAX_DEPTH + 4;

export interface ScanResult {
  state: Exclude<RootState, 'scanning'>;
  cells: CellSummary[];
  problems: Problem[];
}

export interface Found {
  dir: string;
  format: FormatName;
  /** Reached through a symbolic link: it may be a cell found under its own path too. */
  linked?: true;
}

/**
 * The cells below `root` (folders, and files that are cells), down to MAX_DEPTH, without entering a cell or
 * following a symlink loop: the one discovery of every root, on this machine (its read workers) and on an
 * SSH host (over a snapshot of the root, whose entries are never links).
 */
export async function findCells(fs: CellFs, root: string, problems: Problem[], depth = 0, known: ReadonlyMap<string, FormatName> = new Map()): Promise<Found[]> {
  const found: Found[] = [];
  const seen = new Set<string>();
  let realRoot: string | undefined;
  // Only a symbolic link can lead back to a folder already seen (the root, or another link's): the others need no realpath.
  async function visit(dir: string, depth: number, link: boolean, viaLink = link): Promise<void> {
    const cell = (format: FormatName): Found => ({ dir, format, ...(viaLink ? { linked: true as const } : {}) });
    if (link) {
      realRoot ??= await realpath(root).catch(() => root);
      const real = await realpath(dir).catch(() => dir);
      if (seen.has(real) || real === realRoot) return;
      seen.add(real);
    }
    // A cell known already (to the index or its cache) is not listed again: its parent's listing says it is there.
    const knownFormat = known.get(dir);
    if (knownFormat) {
      found.push(cell(knownFormat));
      return;
    }
    const entries = await fs.list(dir);
    if (!entries) {
      problems.push(problem(dir, 'cannot list folder (permission denied?)'));
      return;
    }
    append(problems, entryProblems(dir, entries));
    const files = fileNames(entries);
    const format = await detectFormat(fs, dir, files, problems);
    if (format) {
      found.push(cell(format));
      return;
    }
    // A folder that is no cell may hold rollout collections, each a cell that is a file.
    for (const file of await fileCellsIn(fs, dir, files, (path) => known.has(path))) found.push({ ...file, ...(viaLink ? { linked: true as const } : {}) });
    if (depth >= MAX_DEPTH) return;
    const subdirs = entries.filter((e) => e.kind === 'dir');
    await mapLimited(subdirs, PARALLEL_IO, (sub) => visit(join(dir, sub.name), depth + 1, sub.link === true, viaLink || sub.link === true));
  }
  // A search that starts below the runs root (a read worker's share of its folders) may start on a link.
  const startsOnLink = depth > 0 && (await realpath(root).catch(() => root)) !== join(await realpath(dirname(root)).catch(() => dirname(root)), basename(root));
  await visit(root, depth, false, startsOnLink);
  return found.sort((a, b) => a.dir.localeCompare(b.dir));
}

const fileNames = (entries: { name: string; kind: string }[]) => new Set(entries.filter((e) => e.kind === 'file').map((e) => e.name));

/**
 * The cell at `path` (what a command names): a cell folder, or a cell that is a file (a rollouts file, or a
 * file beside one); NotFoundError when nothing is there or it is no cell. `where` names it in messages.
 */
export async function cellAt(fs: CellFs, path: string, where = path): Promise<Found> {
  const entries = await fs.list(path);
  if (entries) {
    const format = await detectFormat(fs, path, fileNames(entries));
    if (!format) throw new NotFoundError(`${where} is not a cell: a cell is ${whatIsACell()}`);
    return { dir: path, format };
  }
  const file = fileCellOf(path) ?? path;
  const folder = await fs.list(dirname(file));
  if (!folder) throw new NotFoundError(`${where}: no such file or folder`);
  // Only that cell's own files are looked at: a log folder of thousands is not opened to find one.
  const own = [...fileNames(folder)].filter((name) => name === basename(file) || fileCellOf(join(dirname(file), name)) === file);
  const cell = (await fileCellsIn(fs, dirname(file), new Set(own))).find((c) => c.dir === file);
  if (!cell) throw new NotFoundError(`${where} is not a cell: a cell is ${whatIsACell()}`);
  return cell;
}

/** Known cells by the folder of `root` they are below (the root itself for the root): how a search of a few folders is told only theirs. */
export function knownByFolder(root: string, known: ReadonlyMap<string, FormatName>): Map<string, [string, FormatName][]> {
  const byFolder = new Map<string, [string, FormatName][]>();
  for (const [dir, format] of known) {
    const folder = dir === root ? root : join(root, relative(root, dir).split(sep)[0] as string);
    const share = byFolder.get(folder) ?? [];
    share.push([dir, format]);
    byFolder.set(folder, share);
  }
  return byFolder;
}

/**
 * The cells with those reached through a symbolic link that are found under their own path too (a sibling
 * link, `b -> a`, or two links to one folder) left out: each cell is listed once, by its own path.
 */
export async function withoutTwins(root: string, cells: Found[]): Promise<Found[]> {
  const linked = cells.filter((c) => c.linked);
  if (linked.length === 0) return cells;
  const realRoot = await realpath(root).catch(() => root);
  const direct = new Set(cells.filter((c) => !c.linked).map((c) => c.dir));
  const seen = new Set<string>();
  const twins = new Set<Found>();
  for (const cell of linked) {
    const real = await realpath(cell.dir).catch(() => cell.dir);
    const inside = relative(realRoot, real);
    const own = inside.startsWith('..') || isAbsolute(inside) ? real : join(root, inside);
    if (direct.has(own) || seen.has(real)) twins.add(cell);
    seen.add(real);
  }
  return cells.filter((c) => !twins.has(c));
}

/** Whether a runs root can be scanned: null when it can, else why not, as its state and a problem. */
export async function rootTrouble(fs: CellFs, root: string, where = root): Promise<Omit<ScanResult, 'cells'> | null> {
  const info = await fs.stat(root);
  if (!info) return { state: 'missing', problems: [problem(where, 'runs root does not exist; check the path or remove the root')] };
  if (info.kind !== 'dir') return { state: 'missing', problems: [problem(where, 'runs root is not a folder')] };
  if (!(await fs.list(root))) return { state: 'unreadable', problems: [problem(where, 'runs root cannot be listed: permission denied')] };
  return null;
}
