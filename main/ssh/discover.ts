import { dirname } from 'node:path';
import type { Found } from '../scan';
import { DETECT_FILES, formatOf } from '../../runners/detect';
import { shellQuote } from '../launch/quote';
import { MAX_DEPTH } from '../scan';

/** Cell files larger than this are not read by discovery (no runner writes one). */
const HEAD_BYTES = 1 << 20;

/**
 * The one remote command a scan of a remote runs root sends: every run.json and config.json down to
 * MAX_DEPTH folders, each printed as its path and its first megabyte, NUL-separated.
 */
export function discoveryCommand(root: string): string {
  const names = DETECT_FILES.map((n) => `-name ${n}`).join(' -o ');
  return `find -L ${shellQuote([root])} -maxdepth ${MAX_DEPTH + 1} \\( ${names} \\) -type f -exec sh -c 'for f; do printf "%s\\0" "$f"; head -c ${HEAD_BYTES} "$f"; printf "\\0"; done' sh {} + 2>/dev/null`;
}

/** The cells in a discovery listing: not a folder inside another cell. */
export function parseDiscovery(output: string): Found[] {
  const parts = output.split('\0');
  const found = new Map<string, Found>();
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const path = parts[i] as string;
    const file = path.slice(path.lastIndexOf('/') + 1) as (typeof DETECT_FILES)[number];
    const format = formatOf(file, parts[i + 1] as string);
    const dir = dirname(path);
    if (format && !found.has(dir)) found.set(dir, { dir, format });
  }
  const dirs = [...found.keys()];
  return [...found.values()].filter((f) => !dirs.some((d) => f.dir !== d && f.dir.startsWith(`${d}/`))).sort((a, b) => a.dir.localeCompare(b.dir));
}
