// What the pool (pool.ts) asks of a read worker (read-worker.ts), and what the worker answers: a job's
// replies carry its id; a job may be answered in several replies, the last with `done`.
import type { MessagePort } from 'node:worker_threads';
import type { CellRead, ScorerPicks } from '../../runners';
import type { Transcript } from '../../shared/cell-detail';
import type { PairedTest } from '../../shared/mcnemar';

/** One side of a paired test, as a worker reads it: on this machine ('local') or an SSH host's alias. */
export interface PairSide {
  host: string;
  dir: string;
  format: FormatName;
  version: string | null;
}

/** A call of a host's files (CellFs) a worker asks of the thread holding the host's connection. */
export type FsCall =
  | { op: 'list'; args: [dir: string] }
  | { op: 'stat'; args: [path: string] }
  | { op: 'read'; args: [path: string, maxBytes: number] }
  | { op: 'readFrom' | 'readBytes'; args: [path: string, position: number, maxBytes: number] };

/** What a file call gave, or the error it threw (by name and message). */
export interface FsAnswer {
  type: 'fsAnswer';
  call: number;
  result?: unknown;
  error?: { name: string; message: string };
}
import type { BoardEntry, ComparisonTable } from '../../shared/board-comparisons';
import type { CellSummary, FormatName, Problem } from '../../shared/model';
import type { Found } from '../scan';
import type { LookedFiles } from './index-cache';

/** A cell to read, with the paths a watch saw change in it since its last read; absent where anything may have. */
export type Reread = Found & { changed?: string[] };

export type WorkerJob =
  | { type: 'discover'; id: number; dirs: string[]; depth: number; known: [string, FormatName][]; cache: LookedFiles | null; part: number }
  /** Which of these cells (found on the main thread: a collection file in the root itself) the cache holds unchanged. */
  | { type: 'restore'; id: number; cells: Found[]; cache: LookedFiles; part: number }
  /** With `logs`, each cell's event logs checked too, but for those a watch saw no change to since (ReadOptions.changed). */
  | { type: 'read'; id: number; cells: Reread[]; logs: boolean; scorers: ScorerPicks }
  /**
   * The units of these cells as their last read (or the cache) found them, a cell with none known read, sent
   * over `port` to the worker comparing them (UnitsSent): they never cross the thread that asks.
   */
  | { type: 'unitsTo'; id: number; cells: Found[]; scorers: ScorerPicks; port: MessagePort }
  | { type: 'logs'; id: number; cells: Found[] }
  /**
   * The board's comparisons of these cells (shared/board-comparisons.ts), off the thread that serves the
   * window: an entry's units are its own, or, where `held` sends them (a unitsTo job's port), those. With
   * `json`, the comparisons as `board --json` prints them too, sent ahead of the table.
   */
  | { type: 'compare'; id: number; entries: BoardEntry[]; held: MessagePort[]; json: boolean }
  /** A cell (here or on a host) and what its view shows, read whole (a cell opened in the window), and what the read looked at. */
  | { type: 'detail'; id: number; host: string; dir: string; format: FormatName; scorers: ScorerPicks; changed: string[] | null }
  /** One unit of a cell read like a transcript (a rollout the user opens). */
  | { type: 'transcript'; id: number; host: string; dir: string; format: FormatName; unit: string; scorers: ScorerPicks }
  /** The paired test of two sides (a cell, a policy version `v003`, an agent), read and paired here. */
  | { type: 'pair'; id: number; a: PairSide; b: PairSide; scorers: ScorerPicks }
  /**
   * A cell on an SSH host read for its root's index (its row, and what the read looked at), its files asked
   * of the thread holding the host's connection. Run beside the worker's other jobs, not behind them: a
   * remote root's reads wait on the network, a few at once.
   */
  | { type: 'summary'; id: number; host: string; dir: string; format: FormatName; root: string; scorers: ScorerPicks; snapshot: number | null }
  /**
   * A remote root's snapshot (ssh/snapshot.ts) as its scan `stamp` took it, kept here so that the summaries
   * of that scan read the root's listing and small files here, not by a file call each; null: forget it.
   */
  | { type: 'snapshot'; host: string; root: string; depth: number; output: string | null; stamp: number }
  | FsAnswer
  | { type: 'sweep'; id: number; dirs: string[] }
  | { type: 'save'; id: number; dirs: string[]; files: LookedFiles; part: number }
  | { type: 'forget'; dirs: string[] }
  /** The board will ask for every cell's units: those the cache saved are read now, between jobs. */
  | { type: 'unitsAhead' };

/** What a unitsTo job sends over its port: each cell's units as shared/units.ts writes them (a string crosses far faster than a million objects), by folder. */
export type UnitsSent = [dir: string, units: string][];

export type WorkerReply =
  /** The worker's script has loaded: its jobs' stall clocks start. */
  | { type: 'ready' }
  | { type: 'discovered'; id: number; cells: Found[]; problems: Problem[]; unchanged: string[] }
  | { type: 'restored'; id: number; unchanged: string[] }
  | { type: 'reads'; id: number; reads: CellRead[]; done?: boolean }
  | { type: 'unitsSent'; id: number }
  | { type: 'logged'; id: number; logs: { dir: string; problems: Problem[] }[]; done?: boolean }
  /** A piece of the comparisons' JSON (main/comparisons-json.ts), in order. */
  | { type: 'comparisonsJson'; id: number; bytes: Uint8Array }
  | { type: 'compared'; id: number; table: ComparisonTable }
  | { type: 'detailed'; id: number; read: CellRead; looked: { files: string[]; dirs: string[] } }
  | { type: 'summarized'; id: number; row: CellSummary; gone: boolean; looked: { files: string[]; dirs: string[] } }
  | { type: 'transcribed'; id: number; transcript: Transcript | null }
  | { type: 'swept'; id: number; dirty: string[] }
  | { type: 'saved'; id: number }
  | { type: 'paired'; id: number; test: PairedTest }
  /** A file call of a host's cell the job asks for (answered with an FsAnswer). */
  | ({ type: 'fs'; id: number; call: number; host: string } & FsCall)
  /** A job that threw: its error's name (a CompareError stays one) and message. */
  | { type: 'failed'; id: number; message: string; name: string };
