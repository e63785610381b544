// The data model every layer speaks. Field names follow the CLI's JSON (runners/FORMATS.md).
import type { TokenPrice } from './cost';
import { elided, MAX_TEXT_CHARS } from './elide';
import type { RunningUnit } from './stuck';

export type FormatName = 'coding-agent' | 'bigym-agent' | 'evopolicygym' | 'harbor-job' | 'nemo-gym' | 'inspect';

/**
 * Where a cell stands with its benchmark's board: `ui` (a ui_ run) and `nonstd` (a nonstd_ run) by name,
 * `on` when it meets its format's board rule, `off` when it does not; null: its format has no board.
 */
export type Board = 'on' | 'ui' | 'nonstd' | 'off' | null;

export type CellId = string;

/** Something the user should see: what went wrong, where, and what to try. */
/** How bad a problem is: error, something could not be read or done; warning, read but not as it should be. */
export type Severity = 'error' | 'warning';

/** Every failure the user is told of, shown where it concerns: a cell, a root, a host, the app. */
export interface Problem {
  /** The file (relative to its cell when it is in one), folder, host or command it concerns. */
  file: string;
  line?: number;
  message: string;
  severity: Severity;
  /** What the user can do about it, when there is something to do. */
  tip?: string;
}

/** What makes two problems the same one: the file, the line and the message. */
export function problemKey(p: Problem): string {
  return `${p.file}\u0000${p.line ?? ''}\u0000${p.message}`;
}

/** `problems` with each of `more` it does not hold yet appended, once; `problems` itself when there is none. */
export function mergeProblems(problems: Problem[], more: Problem[]): Problem[] {
  const seen = new Set(problems.map(problemKey));
  const fresh = more.filter((p) => !seen.has(problemKey(p)) && seen.add(problemKey(p)));
  return fresh.length ? [...problems, ...fresh] : problems;
}

export function problem(file: string, message: string, more: { line?: number; severity?: Severity; tip?: string } = {}): Problem {
  return { file, ...(more.line !== undefined ? { line: more.line } : {}), message: elided(message, MAX_TEXT_CHARS), severity: more.severity ?? 'error', ...(more.tip ? { tip: more.tip } : {}) };
}

export type CellState =
  | 'running'
  /** Paused by its model service's throttle, its episode clock stopped; `pausedUntil` says until when. */
  | 'throttled'
  | 'finished'
  | 'draining'
  | 'stale'
  | 'void'
  | 'evaluating'
  | 'eval_failed'
  /** A bigym session that ended with nothing being evaluated and no summary for its submission (also after --no-eval). */
  | 'unscored'
  | 'scored'
  | 'interrupted'
  /** A run this app launched whose process ended (stopped, drained, or exited 0) before the cell finished. */
  | 'stopped'
  /** A run this app launched whose process exited non-zero before the cell finished. */
  | 'crashed'
  /** The run ended in error, by its own account (an Inspect log's status `error`). */
  | 'failed'
  /** The run was cancelled, by its own account (an Inspect log's status `cancelled`). */
  | 'cancelled';

/** States of a run that still moves: its rows change, a paired test of it is provisional, a quiet one has stalled. */
const LIVE: ReadonlySet<CellState> = new Set(['running', 'throttled', 'draining', 'evaluating']);
export const isLive = (state: CellState) => LIVE.has(state);

/**
 * One formatter for every time of day: a toLocaleTimeString with options builds one each call (0.1 ms: an
 * event list of thousands redrawn took seconds). Made at the first use: making it costs 14 ms, which every
 * command and read worker that loads this module would pay at its start.
 */
let clock: Intl.DateTimeFormat | undefined;
let minutes: Intl.DateTimeFormat | undefined;
let dayMinutes: Intl.DateTimeFormat | undefined;

/** A time of day in the user's locale, to the second (an event's time, when a throttled run resumes): the one clock format. */
export const clockTime = (ms: number) => (clock ??= new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' })).format(ms);
/** The same clock to the minute, for times that are estimates (when a budget runs out). */
export const clockMinutes = (ms: number) => (minutes ??= new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' })).format(ms);
/** Whether two times fall on one day of the user's calendar. */
export const sameDay = (a: number, b: number) => new Date(a).toDateString() === new Date(b).toDateString();
/** The same to the minute, its day said too where it is not today's (a budget that runs out in days: "Jan 7, 05:55 AM"). */
export const dayClockMinutes = (ms: number, now: number) =>
  sameDay(ms, now) ? clockMinutes(ms) : (dayMinutes ??= new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })).format(ms);

/** A cell's state as a person reads it: a throttled one says when it resumes. */
export function stateText(cell: Pick<CellSummary, 'state' | 'pausedUntil'>): string {
  return cell.state === 'throttled' && cell.pausedUntil !== null ? `throttled until ${clockTime(cell.pausedUntil)}` : cell.state;
}

export interface Budget {
  unit: 'episodes' | 'steps' | 'trials' | 'rollouts' | 'samples';
  used: number;
  /** null when the runner has not said yet. */
  total: number | null;
}

export interface EpisodeCounts {
  planned: number | null;
  ended: number;
  scored: number;
  excluded: number;
  successes: number;
}

export interface Tokens {
  input: number | null;
  cached_input: number | null;
  output: number | null;
  /** The part of `output` the model spent reasoning, where the files say. */
  reasoning: number | null;
}

/** A cell exactly as `status --json` prints it (runners/FORMATS.md, "The CLI's JSON"). */
export interface Cell {
  id: CellId;
  host: string;
  path: string;
  format: FormatName;
  name: string;
  board: Board;
  /** Why the cell is not on the board, each departure in words; empty when it is (or has no board). */
  board_reasons: string[];
  state: CellState;
  budget: Budget;
  episodes: EpisodeCounts;
  success_rate: number | null;
  /** The mean of the units' numeric outcome: a reward, or (`of`) a scorer's value (an Inspect log's `match`). */
  reward?: { mean: number | null; n: number; of?: string };
  tokens: Tokens;
  /** Tokens at list prices (prices.yml); null with no price or no token counts. Never a runner's own figure. */
  cost_usd_estimate: number | null;
  /** What a provider said it charged; never added to an estimate. */
  cost_usd_billed: number | null;
  /** Where the estimate comes from ("prices.yml: openai/gpt-6, list price, 2026-11-01"), or why there is none. */
  cost_source: string | null;
  problems: Problem[];
}

/** One agent of a collection that runs several (NeMo Gym agent_ref): its own figures, its own square on its board. */
export interface AgentRow {
  name: string;
  /** The models its rows name; null where they name none. */
  model: string | null;
  episodes: EpisodeCounts;
  success_rate: number | null;
  reward: { mean: number | null; n: number };
  /** Its rows' tokens (a negative count left out, as from the collection's). */
  tokens: Tokens;
}

/** Who and what a cell ran, for headers and grouping; any may be unknown. */
export interface CellLabels {
  harness: string | null;
  model: string | null;
  condition: string | null;
  effort: string | null;
}

/** What the cell list shows: the cell, its runs root, its labels and when any of its files last changed. */
export interface CellSummary extends Cell {
  root: string;
  labels: CellLabels;
  /** Epoch milliseconds of the newest change seen in the cell's files. */
  changedAt: number | null;
  /** Policy versions with an evaluation (bigym-agent), each comparable as `<id>@vNNN`. */
  evaluatedVersions: string[];
  /** The most GPU memory the run used, as it says (coding-agent summary.json `vram_peak_mib`). */
  vramPeakMib: number | null;
  /** Every policy version of a bigym cell (policies/vNNN.py), oldest first. */
  policyVersions: string[];
  /** The agents of a collection that runs several (NeMo Gym agent_ref), each comparable as `<id>@<agent>` and a square of its board. */
  agents: AgentRow[];
  /** Epoch ms a throttle pause the run is in ends (the countdown it shows); null when not paused. */
  pausedUntil: number | null;
  /** Its units running now, as their logs' ends say: what makes one stuck or looping (shared/stuck.ts). */
  running: RunningUnit[];
  /** Each evaluated policy version's score (bigym-agent), by version; its alert says it as it lands. */
  versionScores: Record<string, number | null>;
  /** The cost the runner itself reported (a LiteLLM list-price guess, say): shown apart, never as the estimate. */
  runnerCostUsd: number | null;
  /** The list price of its model the estimate is worked out at (its units' too); absent or null where prices.yml has none. */
  listPrice?: TokenPrice | null;
  /** Which board of its format the cell belongs to (the protocol, or a bigym task); null: no board. */
  boardName: string | null;
  /** The units left out of the score, by their status (rate_limited: 3). */
  excludedBy: Record<string, number>;
  /** The other cells (their places) that claim this cell's board crossing; while any does, none of them is on the board. */
  rivals: string[];
  /** The benchmarks its files name (evopolicygym `benchmark`, a Harbor trial's task source and task folder), for a hosts file's `benchmarks:`. */
  benchmarks: string[];
  capabilities: Capabilities;
}

/** What a hosts file's entry limits its root to (seed 001's `benchmarks:` and `runs:`); an empty list limits nothing. */
export interface RootLimit {
  benchmarks: string[];
  /** Run ids as seed 001 writes them: `<harness>-<model>-<effort>[-<tag>]`. */
  runs: string[];
}

/** What a cell's format can show beyond the summary: its adapter declares them; views ask for them, never for a format. */
export interface Capabilities {
  /** Policy versions: evaluations per version, frames per version and seed, a version's outcome on a seed. */
  versions: boolean;
  /** Each episode has its own event log and frames. */
  episodeStreams: boolean;
  /** Some ended episodes are excluded from the score. */
  exclusions: boolean;
  /** GPU memory samples over time. */
  vram: boolean;
  /** A unit (a rollout) opens as a transcript. */
  transcripts: boolean;
  /** What one of its units is called: "episode", "seed", "rollout", "sample", "trial". */
  unit: string;
}

/** One unit that pairs in a McNemar test (`episodes --json`). */
export interface EpisodeUnit {
  id: string;
  status: string;
  success: boolean | null;
  scored: boolean;
}

export type RootState = 'scanning' | 'ok' | 'missing' | 'unreadable';

export interface RootStatus {
  path: string;
  /**
   * settings: saved in the settings file; command line: given as ROOT for this start only; demo: the
   * built-in demo; hosts file: a host's `jobs` folder in hosts*.yml of the config folder.
   */
  source: 'settings' | 'command line' | 'demo' | 'hosts file';
  state: RootState;
  cellCount: number;
  problems: Problem[];
  /** While the first scan reads the root's cells: how many of how many found so far, and whether more are being looked for. */
  progress: { read: number; total: number; searching: boolean } | null;
  /** What its hosts file limits it to, and how many of its cells that leaves out; null: every cell is listed. */
  limit: (RootLimit & { hidden: number }) | null;
}

/** How a root's list of cells changed: rows added, rows changed (whole), cells gone. Applied in order. */
export interface CellsDelta {
  root: string;
  added: CellSummary[];
  changed: CellSummary[];
  removed: CellId[];
}

export type ServedBy = 'electron' | 'serve';

export interface AppInfo {
  name: string;
  version: string;
  transport: ServedBy;
  /** True where a native folder picker exists (the Electron window). */
  canPickFolder: boolean;
  settingsFile: string;
  /** What a cell is, in words: each way the formats are found ("a folder with a run.json from coding-agent, ..."). */
  whatIsACell: string;
  /** What the built-in demo writes, in words. */
  demoContents: string;
  /** Problems of the app itself, such as an unreadable settings file. */
  problems: Problem[];
}
