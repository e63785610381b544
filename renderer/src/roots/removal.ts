// Removing a runs root is done a few seconds after the click, with an Undo meanwhile (as mail clients send
// mail): the root and its cells leave the window at once, and the core is asked only when the time is up.
// An errant click on the demo's × took it away for good (and saved that it was dismissed).
import type { CellSummary, RootStatus } from '../../../shared/model';

/** How long a removal can be undone. */
export const UNDO_MS = 8000;

/** The root whose removal waits, which the window leaves out; null when none does. */
export const hiddenRoot = (state: { removing: { path: string } | null }) => state.removing?.path ?? null;

/** What the window shows of the roots and cells while `path`'s removal waits: neither it nor its cells. */
export function without(path: string | null, listed: { roots?: RootStatus[]; cells?: CellSummary[] }): { roots?: RootStatus[]; cells?: CellSummary[] } {
  if (path === null) return listed;
  return {
    ...(listed.roots ? { roots: listed.roots.filter((r) => r.path !== path) } : {}),
    ...(listed.cells ? { cells: listed.cells.filter((c) => c.root !== path) } : {}),
  };
}
