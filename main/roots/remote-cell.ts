// The cells of an SSH root as its index reads them: each in the open-cell workers (watch/open-reader.ts),
// its file calls answered from the root's snapshot or over SFTP; a read its worker could not finish is a
// problem of that cell, a host gone the root's. A whole scan reads again only the cells it must.
import type { CellsDelta, CellSummary, FormatName } from '../../shared/model';
import { summaryOf, unreadableCell } from '../../runners/read';
import type { CellFs } from '../../runners';
import type { HostContext } from '../place/context';
import { unchangedBetween, type RootSnapshot } from '../place/snapshot';
import type { Looked } from './looked';

/** The workers that read a remote cell, `files` answering its file calls. */
export interface RemoteCellReads {
  summary(host: string, dir: string, format: FormatName, root: string, files: CellFs): Promise<{ row: CellSummary; gone: boolean; looked: Looked }>;
  /** Lets go of what the workers keep of the root `root` on `host`. */
  forget(host: string, root: string): void;
}

/** A cell as its root's index knows it: its row, and what its last read looked at. */
export interface Known {
  row: CellSummary;
  format: FormatName;
  looked: Looked;
  /** Its read did not finish (its worker ran out of memory or stalled): read again at every rescan. */
  unread?: true;
}

/** The cell `dir` of the root `root` on the context's host, read over `files`. */
export async function readRemoteCell(reads: RemoteCellReads, context: HostContext, root: string, dir: string, format: FormatName, files: CellFs): Promise<{ known: Known; gone: boolean }> {
  try {
    const { row, gone, looked } = await reads.summary(context.host, dir, format, root, files);
    return { known: { row, format, looked }, gone };
  } catch (error) {
    // The host went: the cell is read again when it is back. Else its worker died (out of its memory) or
    // stalled on it: a problem of this cell, read again at a rescan or when a file comes or goes in its
    // folder (not at each write: each read would take the worker down again); the others read on.
    if ((error as Error).name === 'HostUnavailableError') throw error;
    const row = summaryOf(unreadableCell(dir, format, context, `could not read this cell: ${(error as Error).message}`), root);
    return { known: { row, format, looked: { files: new Set(), dirs: new Set([dir]) }, unread: true }, gone: false };
  }
}

/**
 * A cell's last read where it still holds at this scan: it did not fail, and the last scan's snapshot and
 * this one say the same of every file and folder it looked at. Undefined: the cell is read again.
 */
export function stillHolds(known: Known | undefined, format: FormatName, last: RootSnapshot | null, current: RootSnapshot | null): Known | undefined {
  return known && known.format === format && !known.unread && last && current && unchangedBetween(last, current, known.looked) ? known : undefined;
}

/** The cells a whole scan read (those not gone) in place of `cells`: what was added, changed and removed. */
export function replaceCells(root: string, cells: Map<string, Known>, reads: { known: Known; gone: boolean }[]): CellsDelta {
  const delta: CellsDelta = { root, added: [], changed: [], removed: [] };
  const next = new Map(reads.filter((r) => !r.gone).map((r) => [r.known.row.path, r.known]));
  for (const [dir, known] of next) {
    const was = cells.get(dir);
    if (!was) delta.added.push(known.row);
    else if (JSON.stringify(was.row) !== JSON.stringify(known.row)) delta.changed.push(known.row);
  }
  delta.removed = [...cells.keys()].filter((dir) => !next.has(dir)).map((dir) => (cells.get(dir) as Known).row.id);
  cells.clear();
  next.forEach((known, dir) => cells.set(dir, known));
  return delta;
}
