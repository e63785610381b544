import type { CellSummary, Problem } from '../../shared/model';
import { summaryOf } from '../../runners/read';
import type { Found } from '../scan';
import { quietCells } from './aging';
import type { IndexCache } from './index-cache';
import type { ReaderPool } from './pool';
import { append } from '../../shared/arrays';
import { nextTurn, ROWS_A_TURN } from '../concurrency';

/** Rows reach the window at most this often during the first scan. */
const FLUSH_MS = 100;

/**
 * A root's first scan: its cells found by the workers, and read by them as they are found, rows handed
 * over in batches with how many are done of those found so far. A cell the cache holds whose files have
 * not changed since (stats only) is not read: its cached row goes at once. The event logs' malformed
 * lines of the cells read are left for later, unless `logs` (where no window waits for the rows).
 * Returns the root's problems and the cells read.
 */
export async function firstScan(
  pool: ReaderPool,
  root: string,
  cache: IndexCache | null,
  onRows: (rows: CellSummary[]) => void,
  onProgress: (done: number, total: number, searching: boolean) => void,
  logs = false,
): Promise<{ problems: Problem[]; read: Found[] }> {
  let pending: CellSummary[] = [];
  let found = 0;
  let done = 0;
  let last = 0;
  let searching = true;
  const flush = () => {
    if (pending.length) onRows(pending);
    pending = [];
    last = Date.now();
    onProgress(done, found, searching);
  };
  const read: Found[] = [];
  // Settled, each to its error or null, so that one failing while the search goes on is not left unheard.
  const reads: Promise<Error | null>[] = [];
  const taken = new Set<string>();
  /** Sends the cached rows of the unchanged cells, and has the workers read the others. */
  const take = async (cells: Found[], unchanged: ReadonlySet<string>) => {
    cells.forEach((c) => taken.add(c.dir));
    const saved = await (cache?.rows ?? new Map<string, CellSummary>());
    // A running cell's state changes with time alone: one gone quiet since is read again.
    const cached = cells.flatMap((c) => (unchanged.has(c.dir) && saved.get(c.dir)?.format === c.format ? [saved.get(c.dir) as CellSummary] : []));
    const quiet = new Set(quietCells(cached, Date.now()));
    const kept = cached.filter((row) => !quiet.has(row.path));
    const keptDirs = new Set(kept.map((row) => row.path));
    const toRead = cells.filter((c) => !keptDirs.has(c.dir));
    found += cells.length;
    append(read, toRead);
    reads.push(
      pool.read(
        toRead,
        (batch) => {
          append(pending, batch.flatMap((r) => (r.gone ? [] : [summaryOf(r, root)])));
          done += batch.length;
          if (Date.now() - last >= FLUSH_MS) flush();
        },
        { logs },
      ).then(
        () => null,
        (error: Error) => error,
      ),
    );
    // Thousands of cached rows go out a few hundred at a turn: sent as one event, 5,000 held this thread
    // (which answers the window) for 150 ms.
    for (let i = 0; i < kept.length; i += ROWS_A_TURN) {
      if (i > 0) {
        flush();
        await nextTurn();
      }
      const part = kept.slice(i, i + ROWS_A_TURN);
      done += part.length;
      append(pending, part);
    }
    if (Date.now() - last >= FLUSH_MS) flush();
  };
  const discovered = await pool.discover(root, new Map(), cache?.looked() ?? null, take);
  searching = false;
  // Cells reached through a link (those that are no twin of a cell found by its own path), or a root that is a cell.
  await take(
    discovered.cells.filter((c) => !taken.has(c.dir)),
    discovered.unchanged,
  );
  const failed = (await Promise.all(reads)).find((error) => error !== null);
  if (failed) throw failed;
  flush();
  return { problems: discovered.problems, read };
}
