import { dirname, posix } from 'node:path';
import type { Found } from '../scan';
import { DETECT_FILES, formatOf } from '../../runners/detect';
import { shellQuote } from '../../shared/quote';
import { MAX_DEPTH } from '../scan';

/** Cell files larger than this are not read by discovery (no runner writes one). */
const HEAD_BYTES = 1 << 20;

/**
 * The one remote command a scan of a remote runs root sends: every run.json and config.json down to
 * MAX_DEPTH folders, each printed as its path, a NUL, its first megabyte in hex, a NUL. In hex, a file's
 * contents cannot hold a NUL of their own and so cannot forge a record.
 */
export function discoveryCommand(root: string): string {
  const names = DETECT_FILES.map((n) => `-name ${n}`).join(' -o ');
  const each = `for f; do printf "%s\\0" "$f"; head -c ${HEAD_BYTES} "$f" | od -An -v -tx1 | tr -d " \\n"; printf "\\0"; done`;
  return `find -L ${shellQuote([root])} -maxdepth ${MAX_DEPTH + 1} \\( ${names} \\) -type f -exec sh -c '${each}' sh {} + 2>/dev/null`;
}

/** The cells in a discovery listing below `root`: not a folder inside another cell, nothing outside the root. */
export function parseDiscovery(output: string, root: string): Found[] {
  const parts = output.split('\0');
  const files: { path: string; text: string }[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    if (!/[^0-9a-f]/.test(parts[i + 1] as string)) files.push({ path: parts[i] as string, text: Buffer.from(parts[i + 1] as string, 'hex').toString('utf8') });
  }
  return cellsAmong(files, root);
}

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
