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
  const found = new Map<string, Found>();
  const under = `${root.replace(/\/+$/, '')}/`;
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const path = parts[i] as string;
    const dir = posix.normalize(dirname(path));
    if (!`${dir}/`.startsWith(under) || /[^0-9a-f]/.test(parts[i + 1] as string)) continue;
    const file = path.slice(path.lastIndexOf('/') + 1) as (typeof DETECT_FILES)[number];
    const format = formatOf(file, Buffer.from(parts[i + 1] as string, 'hex').toString('utf8'));
    if (format && !found.has(dir)) found.set(dir, { dir, format });
  }
  const dirs = [...found.keys()];
  return [...found.values()].filter((f) => !dirs.some((d) => f.dir !== d && f.dir.startsWith(`${d}/`))).sort((a, b) => a.dir.localeCompare(b.dir));
}
