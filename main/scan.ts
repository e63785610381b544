import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { CellSummary, Problem, RootState } from '../shared/model';
import { boardOf, cellId } from '../shared/names';
import { detectFormat } from '../runners/detect';

/** Cells sit at most this many directories below a runs root. */
export const MAX_DEPTH = 3;

export interface ScanResult {
  state: Exclude<RootState, 'scanning'>;
  cells: CellSummary[];
  problems: Problem[];
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOENT') return 'does not exist';
  if (code === 'ENOTDIR') return 'is not a folder';
  return (error as Error).message;
}

/** Finds the cells of a local runs root, down to MAX_DEPTH, without following a symlink loop. */
export async function scanRoot(rootPath: string): Promise<ScanResult> {
  const root = resolve(rootPath);
  try {
    if (!(await stat(root)).isDirectory()) {
      return { state: 'missing', cells: [], problems: [{ where: root, message: 'runs root is not a folder' }] };
    }
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR';
    return {
      state: missing ? 'missing' : 'unreadable',
      cells: [],
      problems: [{ where: root, message: `runs root ${reason(error)}; check the path or remove the root` }],
    };
  }

  const cells: CellSummary[] = [];
  const problems: Problem[] = [];
  const seen = new Set<string>();

  async function visit(dir: string, depth: number): Promise<void> {
    let real: string;
    try {
      real = await realpath(dir);
    } catch (error) {
      problems.push({ where: dir, message: `cannot resolve folder: ${reason(error)}` });
      return;
    }
    if (seen.has(real)) return;
    seen.add(real);

    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (depth === 0) throw error;
      problems.push({ where: dir, message: `cannot list folder: ${reason(error)}` });
      return;
    }
    const files = new Set(entries.filter((e) => e.isFile()).map((e) => e.name));
    const format = await detectFormat(dir, files);
    if (format) {
      const name = basename(dir);
      cells.push({ id: cellId('local', dir), host: 'local', path: dir, root, format, name, board: boardOf(name) });
      return;
    }
    if (depth >= MAX_DEPTH) return;
    const subdirs = entries.filter((e) => e.isDirectory() || e.isSymbolicLink()).map((e) => join(dir, e.name));
    for (const sub of subdirs) {
      if ((await stat(sub).catch(() => null))?.isDirectory()) await visit(sub, depth + 1);
    }
  }

  try {
    await visit(root, 0);
  } catch (error) {
    return { state: 'unreadable', cells: [], problems: [{ where: root, message: `runs root ${reason(error)}` }] };
  }
  cells.sort((a, b) => a.path.localeCompare(b.path));
  return { state: 'ok', cells, problems };
}
