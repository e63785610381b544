import { dirname, posix } from 'node:path';
import type { Found } from '../scan';
import { DETECT_FILES, formatOf } from '../../runners/detect';
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
