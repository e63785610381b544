import type { RunningUnit } from '../shared/stuck';
import type { CellDetail, Transcript } from '../shared/cell-detail';
import type { BoardField } from '../shared/board';
import type { AgentRow, Capabilities, Cell, CellLabels, EpisodeUnit, FormatName, Problem } from '../shared/model';
import type { CellFs } from './common/fs';
import type { JsonReader } from './common/json';
import type { JsonlCache } from './common/jsonl-cache';

export interface ReadContext {
  fs: CellFs;
  json: JsonReader;
  /** Where JSONL logs are kept between reads, to be read on from where they were; absent: read whole. */
  jsonl?: JsonlCache;
  /** Epoch milliseconds "now", so states that depend on age are testable. */
  now: number;
  host: string;
  /** The scorer a user picked for each Inspect log's outcomes, by cell id (settings' `scorers`); none: its first. */
  scorers?: ScorerPicks;
}

/** The scorer picked for each Inspect log's outcomes, by cell id. */
export type ScorerPicks = Readonly<Record<string, string>>;

/** A line of a cell's transcript that names a path outside its sandbox. */
export interface AuditFinding {
  /** The file, relative to the cell. */
  file: string;
  line: number;
  path: string;
  text: string;
}

/** What the cell view shows beyond the summary. */
export type DetailRead = Omit<CellDetail, 'summary'>;

export interface CellRead {
  cell: Cell;
  labels: CellLabels;
  changedAt: number | null;
  /** The units a McNemar test pairs, in the format's order. */
  units: EpisodeUnit[];
  /** Policy versions with an evaluation summary; each pairs as CELL@vNNN. */
  evaluatedVersions?: string[];
  vramPeakMib?: number | null;
  policyVersions?: string[];
  /** Each agent's units, for a cell that runs several; each pairs as CELL@AGENT. */
  agentUnits?: Record<string, EpisodeUnit[]>;
  /** Each agent's figures, for a cell that runs several. */
  agents?: AgentRow[];
  /** Each evaluated version's success rate (a rejected one scores 0). */
  versionScores?: Record<string, number | null>;
  /** The cost the runner itself reported, shown apart from the estimate. */
  runnerCostUsd?: number | null;
  /** Which board of its format the cell belongs to (its protocol, a bigym task); absent: no board. */
  boardName?: string;
  /** The benchmarks its files name; absent: none. */
  benchmarks?: string[];
  /** Epoch ms a throttle pause the run is in ends (its countdown): no bytes until then is not a stall. */
  pausedUntil?: number | null;
  /** The units running now, as their logs' ends say (shared/stuck.ts); none where the format cannot tell. */
  running?: RunningUnit[];
  /** The units left out of the score, by status (readCell counts them). */
  excludedBy?: Record<string, number>;
  /** Problems that break the integrity rules (runners/common/integrity.ts): each also takes the cell off its board. */
  integrity?: Problem[];
  /** Present when the read was asked for it: from the same reading of the files as the rest. */
  detail?: DetailRead;
  /** The cell's folder is gone. */
  gone?: true;
}

/** A JSONL log whose lines become a stream of events (`cellwatch tail`, the cell view's event stream). */
export interface EventLog {
  /** The stream's name: an episode id, or the log's own name. */
  stream: string;
  /** Path relative to the cell. */
  file: string;
  /** The event name of a line: its own `ev` or `type`, or the log's kind. */
  eventName(value: Record<string, unknown>): string;
  /** What a line shows, when not all of it: its unit and the fields that say what happened (a rollout's reward, not its conversation). */
  shown?(value: Record<string, unknown>): { episode: string; fields: Record<string, unknown> };
  /** The adapter reports the log's malformed lines itself, from its own read: not checked again. */
  checked?: true;
}

/** Where a version's frames on a seed come from: an evaluation replay, or a development episode. */
export type VersionSource = 'replay' | 'dev';

/** A format whose cells hold policy versions (evaluated, replayed and compared per seed). */
export interface VersionsCapability {
  /** The folder, relative to the cell, of a version's frames on a seed. */
  framesFolder(source: VersionSource, version: string, seed: string): string;
  /** The seeds a version has frames for, and where they come from. */
  seedsWithFrames(dir: string, version: string, ctx: ReadContext): Promise<Map<string, VersionSource>>;
  /** The version's outcome on a seed: its evaluation, else its development episode. */
  outcome(dir: string, version: string, seed: string, ctx: ReadContext): Promise<'success' | 'failure' | 'unknown'>;
  /** The units a paired test of this version pairs; null before it has an evaluation. */
  units(dir: string, version: string, ctx: ReadContext): Promise<EpisodeUnit[] | null>;
}

/** What a format can do beyond reading a cell; main/ and renderer/ ask for these, never for a format by name. */
export interface FormatCapabilities {
  versions?: VersionsCapability;
  /** Each episode has an event log and a folder of frames (relative to the cell). */
  episodeStreams?: { framesFolder(episode: string): string };
  /** Some ended episodes are excluded from the score. */
  exclusions?: true;
  /** GPU memory samples appended to a JSONL file of the cell (see common/vram.ts). */
  vram?: { file: string };
  /**
   * The format's runner keeps a board: who is on it, in words (cells say their departures from it); `apart`:
   * fields whose values are never compared with each other (bigym's interface: tools is the ablation row).
   */
  board?: { rule: string; apart?: readonly BoardField[] };
  /**
   * The cell is one file (its path) and the files named after it beside it, not a folder: paths relative
   * to the cell are relative to the file's folder. `cellsIn` finds such cells among a folder's files
   * (`known` paths are cells already, not opened again); `ownerOf` names the cell a file beside one
   * belongs to, or null; `what`, such a file in words (the empty list says what a cell is).
   */
  fileCell?: {
    what: string;
    cellsIn(fs: CellFs, dir: string, files: ReadonlySet<string>, known: (path: string) => boolean): Promise<string[]>;
    ownerOf(path: string): string | null;
  };
  /** What the cell's transcript names outside its sandbox (bigym-agent's `audit`), read on as it grows. */
  audit?: { read(dir: string, ctx: ReadContext): Promise<readonly AuditFinding[]> };
  /** One unit (a rollout) read like a transcript, when the user opens it; null when the cell has no such unit. */
  transcripts?: { read(path: string, unit: string, ctx: ReadContext): Promise<Transcript | null> };
  /** Paths (relative to the cell) whose changes never change what the cell list shows: frames, media. */
  quiet?: RegExp;
  /** Its units' outcomes are read by a scorer a user may pick (an Inspect log's; `ReadContext.scorers`). */
  scorerPick?: true;
  /**
   * A cell rewritten rather than appended (an Inspect log written over whole every few samples): its finished
   * units as events, read again on each change; a follower prints each once (`ev` is their event's name).
   */
  finishedUnits?: { ev: string; read(path: string, ctx: ReadContext): Promise<FinishedUnit[]> };
}

/** A unit of a cell written over whole, as `tail` tells it: when it ended (epoch seconds), and its outcome's fields. */
export interface FinishedUnit {
  unit: string;
  t: number | null;
  fields: Record<string, unknown>;
}

export interface FormatAdapter {
  format: FormatName;
  /** Reads the cell; with `detail`, also what its view shows, in the same pass over its files. */
  read(dir: string, ctx: ReadContext, options?: { detail?: boolean }): Promise<CellRead>;
  /** The cell's event logs, as they are now. */
  eventLogs(dir: string, ctx: ReadContext): Promise<EventLog[]>;
  capabilities: FormatCapabilities;
  /**
   * What a paired test pairs of its cells, in words (the help of `cellwatch episodes` and `mcnemar`):
   * `units`, and `side` where a side of a test can be part of a cell; `unit`, what one is called ("rollout").
   */
  pairing: { units: string; side?: string; unit: string };
  /** What `cellwatch tail` prints of its cells, in words (its help lists each format's); none without event logs. */
  events?: string;
}

/** The capabilities as the window sees them. */
export function capabilitiesOf(adapter: FormatAdapter): Capabilities {
  const c = adapter.capabilities;
  return { versions: c.versions !== undefined, episodeStreams: c.episodeStreams !== undefined, exclusions: c.exclusions === true, vram: c.vram !== undefined, transcripts: c.transcripts !== undefined, unit: adapter.pairing.unit };
}

/** A cell none of whose files changed for this long is no longer running. */
export const STALE_AFTER_MS = 10 * 60 * 1000;

/** Whether something last changed at `changedAt` still counts as moving at `now`. */
export function isRecent(changedAt: number | null, now: number): boolean {
  return changedAt !== null && now - changedAt < STALE_AFTER_MS;
}
