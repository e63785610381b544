import type { CellDetail } from '../shared/cell-detail';
import type { Cell, CellLabels, EpisodeUnit, FormatName, Problem } from '../shared/model';
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
  vramPeakMib?: number | null;
  policyVersions?: string[];
}

/** What the cell view shows beyond the summary, with the problems met reading it. */
export type DetailRead = Omit<CellDetail, 'summary'> & { problems: Problem[] };

/** A JSONL log whose lines become a stream of events (`cellwatch tail`, the cell view's event stream). */
export interface EventLog {
  /** The stream's name: an episode id, or the log's own name. */
  stream: string;
  /** Path relative to the cell. */
  file: string;
  /** The event name of a line: its own `ev` or `type`, or the log's kind. */
  eventName(value: Record<string, unknown>): string;
}

export interface FormatAdapter {
  format: FormatName;
  read(dir: string, ctx: ReadContext): Promise<CellRead>;
  detail(dir: string, ctx: ReadContext): Promise<DetailRead>;
  /** The cell's event logs, as they are now. */
  eventLogs(dir: string, ctx: ReadContext): Promise<EventLog[]>;
}

/** A cell none of whose files changed for this long is no longer running. */
export const STALE_AFTER_MS = 10 * 60 * 1000;

/** Whether something last changed at `changedAt` still counts as moving at `now`. */
export function isRecent(changedAt: number | null, now: number): boolean {
  return changedAt !== null && now - changedAt < STALE_AFTER_MS;
}
