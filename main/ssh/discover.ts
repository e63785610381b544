import { dirname, posix } from 'node:path';
import type { Found } from '../scan';
import { DETECT_FILES, fileCellsIn, formatOf } from '../../runners/detect';
import type { CellFs } from '../../runners';
import { MAX_DEPTH } from '../scan';

/** The cells that these run.json and config.json files (and any other files, ignored) say are below `root`, down to MAX_DEPTH. */
export function cellsAmong(files: { path: string; text: string }[], root: string): Found[] {
  const found = new Map<string, Found>();
  const under = `${root.replace(/\/+$/, '')}/`;
  for (const { path, text } of files) {
    const dir = posix.normalize(dirname(path));
    const file = path.slice(path.lastIndexOf('/') + 1);
    if (!`${dir}/`.startsWith(under) || !(DETECT_FILES as readonly string[]).includes(file)) continue;
    if (dir.slice(under.length).split('/').length > MAX_DEPTH) continue;
    const format = formatOf(file as (typeof DETECT_FILES)[number], text);
    if (format && !found.has(dir)) found.set(dir, { dir, format });
  }
  const dirs = [...found.keys()];
  return [...found.values()].filter((f) => !dirs.some((d) => f.dir !== d && f.dir.startsWith(`${d}/`))).sort((a, b) => a.dir.localeCompare(b.dir));
}

/**
 * The cells that are files (rollout collections) in the folders below `root` that are no cell and in no
 * cell, down to MAX_DEPTH: listed from `fs` (a snapshot answers from memory), first lines read from the host.
 */
export async function fileCellsAmong(fs: CellFs, root: string, folderCells: Found[], known: (path: string) => boolean): Promise<Found[]> {
  const cells = new Set(folderCells.map((c) => c.dir));
  const found: Found[] = [];
  const visit = async (dir: string, depth: number): Promise<void> => {
    if (cells.has(dir)) return;
    const entries = await fs.list(dir);
    if (!entries) return;
    const files = new Set(entries.filter((e) => e.kind === 'file').map((e) => e.name));
    for (const cell of await fileCellsIn(fs, dir, files, known)) found.push(cell);
    if (depth < MAX_DEPTH) for (const e of entries) if (e.kind === 'dir') await visit(posix.join(dir, e.name), depth + 1);
  };
  await visit(root.replace(/\/+$/, '') || '/', 0);
  return found;
}
