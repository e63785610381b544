import { join } from 'node:path';
import { realpath } from 'node:fs/promises';
import { type CellSummary, type FormatName, type Problem, type RootState, problem } from '../shared/model';
import { detectFormat, type CellFs } from '../runners';
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
export async function findCells(fs: CellFs, root: string, problems: Problem[], depth = 0, known: ReadonlyMap<string, FormatName> = new Map()): Promise<Found[]> {
  const found: Found[] = [];
  const seen = new Set<string>();
  // Only a symbolic link can lead back to a folder already seen: the others need no realpath.
  async function visit(dir: string, depth: number, link: boolean): Promise<void> {
    if (link || dir === root) {
      const real = await realpath(dir).catch(() => dir);
      if (seen.has(real)) return;
      seen.add(real);
    }
    // A cell known already (to the index or its cache) is not listed again: its parent's listing says it is there.
    const knownFormat = known.get(dir);
    if (knownFormat) {
      found.push({ dir, format: knownFormat });
      return;
    }
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
    const subdirs = entries.filter((e) => e.kind === 'dir');
    await mapLimited(subdirs, PARALLEL_IO, (sub) => visit(join(dir, sub.name), depth + 1, sub.link === true));
  }
  await visit(root, depth, false);
  return found.sort((a, b) => a.dir.localeCompare(b.dir));
}

/** Whether a runs root can be scanned: null when it can, else why not, as its state and a problem. */
export async function rootTrouble(fs: CellFs, root: string, where = root): Promise<Omit<ScanResult, 'cells'> | null> {
  const info = await fs.stat(root);
  if (!info) return { state: 'missing', problems: [problem(where, 'runs root does not exist; check the path or remove the root')] };
  if (info.kind !== 'dir') return { state: 'missing', problems: [problem(where, 'runs root is not a folder')] };
  if (!(await fs.list(root))) return { state: 'unreadable', problems: [problem(where, 'runs root cannot be listed: permission denied')] };
  return null;
}
