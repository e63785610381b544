import type { Cell, CellLabels, EpisodeUnit, FormatName } from '../shared/model';
import type { CellFs } from './common/fs';
import type { JsonReader } from './common/json';

export interface ReadContext {
  fs: CellFs;
  json: JsonReader;
  /** Epoch milliseconds "now", so states that depend on age are testable. */
  now: number;
  host: string;
}

export interface CellRead {
  cell: Cell;
  labels: CellLabels;
  changedAt: number | null;
  /** The units a McNemar test pairs, in the format's order. */
  units: EpisodeUnit[];
  /** Policy versions with an evaluation summary (bigym-agent); each pairs as CELL@vNNN. */
  evaluatedVersions?: string[];
}

export interface FormatAdapter {
  format: FormatName;
  read(dir: string, ctx: ReadContext): Promise<CellRead>;
}

/** A cell none of whose files changed for this long is no longer running. */
export const STALE_AFTER_MS = 10 * 60 * 1000;
