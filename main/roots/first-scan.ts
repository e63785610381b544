import type { CellSummary } from '../../shared/model';
import { summaryOf } from '../../runners/read';
import type { ReaderPool } from './pool';
import type { Found } from '../scan';

/** Rows reach the window at most this often during the first scan. */
const FLUSH_MS = 100;

/**
 * A root's first read of the cells found: rows handed over in batches as the workers read them (the
 * event logs' malformed lines are left for later), with how many are read so far.
 */
export async function readRows(pool: ReaderPool, root: string, cells: Found[], onRows: (rows: CellSummary[]) => void, onProgress: (read: number) => void): Promise<void> {
  let pending: CellSummary[] = [];
  let read = 0;
  let last = Date.now();
  const flush = () => {
    if (pending.length) onRows(pending);
    pending = [];
    last = Date.now();
    onProgress(read);
  };
  await pool.read(
    cells,
    (reads) => {
      pending.push(...reads.map((r) => summaryOf(r, root)));
      read += reads.length;
      if (Date.now() - last >= FLUSH_MS) flush();
    },
    false,
  );
  flush();
}
