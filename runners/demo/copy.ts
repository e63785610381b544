// The tests' copies of the demo written once for their run (unit and e2e), or of its cells: its frames
// linked, the rest copied.
import { copyFileSync, linkSync, mkdirSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';

/**
 * The demo at `from` as a tree of its own at `to`. Its 6,000 PNG frames, which nothing writes once the demo
 * has, are hard links (a copy of each took 1.5-4 CPU s a tree here, most of it the kernel's); every other
 * file is copied, so a test may append to or rewrite it without touching the run's one demo.
 */
export function copyDemo(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const [source, target] = [join(from, entry.name), join(to, entry.name)];
    if (entry.isDirectory()) copyDemo(source, target);
    else if (extname(entry.name) !== '.png' || !linked(source, target)) copyFileSync(source, target);
  }
}

/** Whether `target` was made a hard link to `source`: not across file systems, nor where links are refused. */
function linked(source: string, target: string): boolean {
  try {
    linkSync(source, target);
    return true;
  } catch {
    return false;
  }
}
