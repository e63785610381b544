// What the pool (pool.ts) asks of a read worker (read-worker.ts), and what the worker answers: a job's
// replies carry its id; a job may be answered in several replies, the last with `done`.
import type { CellRead } from '../../runners';
import type { BoardEntry, ComparisonTable } from '../../shared/board-comparisons';
import type { FormatName, Problem } from '../../shared/model';
import type { Found } from '../scan';
import type { LookedFiles } from './index-cache';

export type WorkerJob =
  | { type: 'discover'; id: number; dirs: string[]; depth: number; known: [string, FormatName][]; cache: LookedFiles | null; part: number }
  | { type: 'read'; id: number; cells: Found[]; logs: boolean }
  /** The units of these cells as their last read (or the cache) found them; a cell with none known is read. */
  | { type: 'units'; id: number; cells: Found[] }
  | { type: 'logs'; id: number; cells: Found[] }
  /** The board's comparisons of these cells (shared/board-comparisons.ts), off the thread that serves the window. */
  | { type: 'compare'; id: number; entries: BoardEntry[] }
  | { type: 'sweep'; id: number; dirs: string[] }
  | { type: 'save'; id: number; dirs: string[]; files: LookedFiles; part: number }
  | { type: 'forget'; dirs: string[] };

export type WorkerReply =
  | { type: 'discovered'; id: number; cells: Found[]; problems: Problem[]; unchanged: string[] }
  | { type: 'reads'; id: number; reads: CellRead[]; done?: boolean }
  /** Each cell's units as units-codec.ts writes them: a string crosses to the pool far faster than a million objects. */
  | { type: 'unitsOf'; id: number; units: [string, string][]; done?: boolean }
  | { type: 'logged'; id: number; logs: { dir: string; problems: Problem[] }[]; done?: boolean }
  | { type: 'compared'; id: number; table: ComparisonTable }
  | { type: 'swept'; id: number; dirty: string[] }
  | { type: 'saved'; id: number }
  | { type: 'failed'; id: number; message: string };
