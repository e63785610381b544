// The OS watcher of a local runs root: every change below it, but for the paths a format says never
// change a row (frames, media), which would flood it.
import { dirname, relative, sep } from 'node:path';
import { problem, type FormatName, type Problem } from '../../shared/model';
import { ADAPTERS, fileCellOf } from '../../runners';
import { MAX_DEPTH } from '../scan';
import { watchTree, type TreeWatchOptions } from './tree-watcher';

/**
 * The known cell holding `path`: the nearest folder above it (or itself) that is a cell of `root`, or the
 * cell that is a file a sidecar belongs to (a collection's failures).
 */
export function cellHolding(cells: ReadonlyMap<string, { format: FormatName }>, root: string, path: string): { dir: string; format: FormatName } | null {
  const owner = fileCellOf(path);
  const ownerCell = owner === null ? undefined : cells.get(owner);
  if (owner !== null && ownerCell) return { dir: owner, format: ownerCell.format };
  for (let dir = path; dir.length >= root.length; dir = dirname(dir)) {
    const cell = cells.get(dir);
    if (cell) return { dir, format: cell.format };
    if (dir === dirname(dir)) break;
  }
  return null;
}

export interface RootWatcher {
  close(): void;
}

/**
 * Watches `root`, resolving once the watcher is set up. `cellOf` names the known cell a path is in;
 * `onChange` hears each change, `onFailure` the error that stopped the watcher (it is closed then).
 */
export async function watchRoot(
  root: string,
  cellOf: (path: string) => { dir: string; format: FormatName } | null,
  onChange: (path: string) => void,
  onFailure: (error: NodeJS.ErrnoException) => void,
  watch?: TreeWatchOptions['watch'],
): Promise<RootWatcher> {
  const quiet = (path: string) => {
    const cell = cellOf(path);
    return cell !== null && (ADAPTERS[cell.format].capabilities.quiet?.test(relative(cell.dir, path).split(sep).join('/')) ?? false);
  };
  return watchTree(root, {
    // root/…/cell (up to 3) and inside a cell its logs, two folders down.
    depth: MAX_DEPTH + 2,
    ignored: (path) => path !== root && quiet(path),
    onChange,
    onFailure,
    watch,
  });
}

/** What the user is told when the OS cannot watch the root: once, with the limit's name when that is it. */
export function watchProblem(root: string, error: NodeJS.ErrnoException, sweepS: number): Problem {
  const instead = `changes are found by a sweep every ${sweepS} s instead`;
  if (error.code === 'ENOSPC' || error.code === 'EMFILE') {
    return problem(root, `too many folders to watch: the system's limit fs.inotify.max_user_watches is reached; ${instead}`, {
      severity: 'warning',
      tip: 'raise it: sudo sysctl fs.inotify.max_user_watches=524288',
    });
  }
  return problem(root, `watching stopped (${error.message}); ${instead}`, { severity: 'warning' });
}
