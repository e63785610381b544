import { join, resolve } from 'node:path';
import { realpath } from 'node:fs/promises';
import { type CellSummary, type FormatName, type Problem, type RootState, problem } from '../shared/model';
import { detectFormat, type CellFs, type ReadContext } from '../runners';
import { readCell, summaryOf } from '../runners/read';
import { mapLimited, PARALLEL_IO } from './concurrency';

/** Cells sit at most this many directories below a runs root. */
export const MAX_DEPTH = 3;

export interface ScanResult {
  state: Exclude<RootState, 'scanning'>;
  cells: CellSummary[];
  problems: Problem[];
}

export interface Found {
  dir: string;
  format: FormatName;
}

/** The cell folders below `root`, down to MAX_DEPTH, without entering a cell or following a symlink loop. */
export async function findCells(fs: CellFs, root: string, problems: Problem[]): Promise<Found[]> {
  const found: Found[] = [];
  const seen = new Set<string>();
  async function visit(dir: string, depth: number): Promise<void> {
    const real = await realpath(dir).catch(() => dir);
    if (seen.has(real)) return;
    seen.add(real);
    const entries = await fs.list(dir);
    if (!entries) {
      problems.push(problem(dir, 'cannot list folder (permission denied?)'));
      return;
    }
    const files = new Set(entries.filter((e) => e.kind === 'file').map((e) => e.name));
    const format = await detectFormat(fs, dir, files);
    if (format) {
      found.push({ dir, format });
      return;
    }
    if (depth >= MAX_DEPTH) return;
    const subdirs = entries.filter((e) => e.kind === 'dir').map((e) => join(dir, e.name));
    await mapLimited(subdirs, PARALLEL_IO, (sub) => visit(sub, depth + 1));
  }
  await visit(root, 0);
  return found.sort((a, b) => a.dir.localeCompare(b.dir));
}

/** Finds and reads the cells of a local runs root. A missing or unreadable root is a problem, not a throw. */
export async function scanRoot(rootPath: string, ctx: ReadContext): Promise<ScanResult> {
  const root = resolve(rootPath);
  const info = await ctx.fs.stat(root);
  if (!info) return { state: 'missing', cells: [], problems: [problem(root, 'runs root does not exist; check the path or remove the root')] };
  if (info.kind !== 'dir') return { state: 'missing', cells: [], problems: [problem(root, 'runs root is not a folder')] };
  if (!(await ctx.fs.list(root))) {
    return { state: 'unreadable', cells: [], problems: [problem(root, 'runs root cannot be listed: permission denied')] };
  }
  const problems: Problem[] = [];
  const found = await findCells(ctx.fs, root, problems);
  const cells = await mapLimited(found, PARALLEL_IO, async ({ dir, format }) => summaryOf(await readCell(dir, format, ctx), root));
  cells.sort((a, b) => a.path.localeCompare(b.path));
  return { state: 'ok', cells, problems };
}

