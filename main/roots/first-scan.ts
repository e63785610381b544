import type { CellSummary, Problem } from '../../shared/model';
import { summaryOf } from '../../runners/read';
import type { Found } from '../scan';
import { quietCells } from './aging';
import type { IndexCache } from './index-cache';
import type { ReaderPool } from './pool';

/** Rows reach the window at most this often during the first scan. */
const FLUSH_MS = 100;

/**
 * A root's first scan: its cells found, then read by the workers, rows handed over in batches as they
 * come with how many are done so far. A cell the cache holds whose files have not changed since (stats
 * only) is not read: its cached row goes first. The event logs' malformed lines of the cells read are
 * left for later, unless `logs` (where no window waits for the rows). Returns the root's problems and the
 * cells read.
 */
export async function firstScan(
  pool: ReaderPool,
  root: string,
  cache: IndexCache | null,
  onRows: (rows: CellSummary[]) => void,
  onProgress: (done: number, total: number) => void,
  logs = false,
): Promise<{ problems: Problem[]; read: Found[] }> {
  const [{ cells, problems, unchanged }, saved] = await Promise.all([pool.discover(root, new Map(), cache?.looked() ?? null), cache?.rows ?? new Map<string, CellSummary>()]);
  // A running cell's state changes with time alone: one gone quiet since is read again.
  const cached = cells.flatMap((c) => (unchanged.has(c.dir) && saved.get(c.dir)?.format === c.format ? [saved.get(c.dir) as CellSummary] : []));
  const quiet = new Set(quietCells(cached, Date.now()));
  const kept = cached.filter((row) => !quiet.has(row.path));
  if (kept.length) onRows(kept);
  onProgress(kept.length, cells.length);

  const keptDirs = new Set(kept.map((row) => row.path));
  const toRead = cells.filter((c) => !keptDirs.has(c.dir));
  let pending: CellSummary[] = [];
  let done = kept.length;
  let last = Date.now();
  const flush = () => {
    if (pending.length) onRows(pending);
    pending = [];
    last = Date.now();
    onProgress(done, cells.length);
  };
  await pool.read(
    toRead,
    (reads) => {
      pending.push(...reads.flatMap((r) => (r.gone ? [] : [summaryOf(r, root)])));
      done += reads.length;
      if (Date.now() - last >= FLUSH_MS) flush();
    },
    logs,
  );
  flush();
  return { problems, read: toRead };
}
