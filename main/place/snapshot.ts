// A remote root's snapshot (ssh/snapshot.ts) as the read workers share it: sent to them as the host printed
// it, and read there over the host's files, asked of the thread that holds its connection.
import type { CellFs } from '../../runners';
import { SnapshotFs } from '../ssh/snapshot';

/** A root's snapshot: what its command printed, for its root and depth; the same listing over other files. */
export type RootSnapshot = CellFs & Pick<SnapshotFs, 'output' | 'root' | 'depth' | 'over'>;

/** `fs` as a root's snapshot, where a host's `snapshot()` made it one. */
export const asRootSnapshot = (fs: CellFs): RootSnapshot | null => (fs instanceof SnapshotFs ? fs : null);

/** The snapshot a host printed as `output`, read again; `files` answer what it does not hold. */
export const rootSnapshot = (output: string, root: string, depth: number, files: CellFs): RootSnapshot => new SnapshotFs(output, root, depth, files);

/**
 * Whether a cell's last read still holds at the later snapshot `after`: `before` and `after` say the same of
 * every file and folder it looked at.
 */
export function unchangedBetween(before: RootSnapshot, after: RootSnapshot, looked: { files: ReadonlySet<string>; dirs: ReadonlySet<string> }): boolean {
  if (!(before instanceof SnapshotFs) || !(after instanceof SnapshotFs)) return false;
  for (const paths of [looked.files, looked.dirs]) for (const path of paths) if (!before.sameAs(after, path)) return false;
  return true;
}
