// One interface for the cells of a runs root, wherever it is (open-index.ts opens one).
import type { CellSummary, RootStatus } from '../../shared/model';

export interface RootIndex {
  /** The root's address: a local path, or `ALIAS:/path`. */
  readonly root: string;
  /** The root as its index sees it; the service adds what a hosts file limits it to. */
  status(source: RootStatus['source']): Omit<RootStatus, 'limit'>;
  list(): CellSummary[];
  /** The first scan; resolves once the root's cells are listed, or its status says why they are not. */
  start(): Promise<void>;
  /** Looks again now: a launched run's new cell, a root just added again. */
  refresh(): Promise<void>;
  /** Reads this cell again, its files unchanged: what it is read by changed (a scorer picked). */
  reread(cellPath: string): void;
  close(): Promise<void>;
}
