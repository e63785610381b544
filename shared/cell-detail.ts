// What the cell view shows, and the deltas that keep it live.
import type { CellSummary, Problem } from './model';

/** A row of the episodes table: a coding-agent episode, a bigym development episode, an evopolicygym submission, a Harbor trial. */
export interface EpisodeRow {
  id: string;
  /** running, or the runner's end status. */
  status: string;
  success: boolean | null;
  /** Counted toward the score; false for an excluded episode. */
  scored: boolean;
  toolCalls: number | null;
  actions: number | null;
  wallS: number | null;
  /** Epoch milliseconds the episode ended (or its latest line), for charts over time. */
  t: number | null;
  /** Its tokens, where its files say them per unit (a rollout's usage, a sample's, a trial's): input (cached reads inside it) and output. */
  usage?: UnitTokens | null;
  /** A short word on what the row is when the id alone does not say (a seed's version, a submission's charge). */
  note: string | null;
  /** True when this episode has a trajectory to stream. */
  hasEvents: boolean;
  /** The policy version or agent the row is one of, in a cell that runs several: charts draw a line per group. */
  group?: string;
  /** What the files say of an episode without a trajectory (a Harbor trial, a submission), in words, in order. */
  facts?: { label: string; value: string }[];
  /** Its text files to read (a trial's trial.log, exception.txt, verifier output), relative to the cell. */
  files?: string[];
}

/** A unit's tokens; null where its files do not say. */
export interface UnitTokens {
  input: number | null;
  cached: number | null;
  output: number | null;
}

export interface VersionRow {
  version: string;
  devEpisodes: number;
  devSuccesses: number;
  /** none: never evaluated; evaluating; scored; eval_failed: no summary and nothing moving. */
  evalState: 'none' | 'evaluating' | 'scored' | 'eval_failed';
  evalDone: number;
  evalTotal: number | null;
  evalRate: number | null;
  rejected: boolean;
  spotCheckFailed: boolean;
}

export interface VramSample {
  t: number;
  gpu: number;
  usedMib: number;
  totalMib: number | null;
}

/**
 * A program the agent wrote, as the cell keeps it (a bigym policy version, an evopolicygym submission's
 * snapshot): each file's name within the program, which pairs it with its counterpart in another program,
 * and its path relative to the cell.
 */
export interface ProgramSnapshot {
  id: string;
  files: { name: string; path: string }[];
  /** What the run made of it, where it says ("selected", "handed off 2nd"); null otherwise. */
  note: string | null;
}

/** A set of frames to play: the frames of one episode, or a policy version's development or replay episode on one seed. */
export type FrameSource = { kind: 'episode'; episode: string } | { kind: 'dev' | 'replay'; version: string; seed: string };

export interface FrameSet {
  fps: number;
  /** Each camera as frame images in order, or as one video (`<camera>.mp4`). */
  cameras: { name: string; urls: string[]; video?: string }[];
}

export interface CellDetail {
  summary: CellSummary;
  episodes: EpisodeRow[];
  /** Episodes the view was not sent, the earliest (a collection of 100,000 rollouts): `cellwatch episodes` lists them all. */
  episodesLeftOut?: number;
  versions: VersionRow[];
  vram: VramSample[];
  /** Epoch milliseconds the run started, when it says. */
  startedAt: number | null;
  /** Limits of one episode (coding-agent protocol): turns, actions, seconds. */
  episodeBudget: { turns: number | null; actions: number | null; timeoutS: number | null } | null;
  /** Frame sources beyond episodes' own: bigym development and replay episodes. */
  frameSources: FrameSource[];
  /** The cell's own event log, for formats whose episodes have none (bigym ledger, evopolicygym events). */
  logStream: string | null;
  /** Budgets beside the summary's main one (evopolicygym: accepted submissions of max_submissions). */
  otherBudgets: { label: string; used: number; total: number | null }[];
  /** Tables a format adds to its view (NeMo Gym: agents, tasks, failures, the aggregate), shown as they come. */
  tables: DetailTable[];
  /** The programs the agent wrote, oldest first: their source and the change from one to another. */
  programs: ProgramSnapshot[];
  /** What a unit's outcome is read by where a user can pick it (an Inspect log's scorers): the one used, each one, the first. */
  outcomeBy?: { scorer: string | null; scorers: string[]; first: string | null };
}

/** A value of a detail table's cell: shown whole; null is shown as a dash. */
export type TableValue = string | number | boolean | null;

/** A table the cell view shows as it is given: a title, its columns, its rows, a line under it. */
export interface DetailTable {
  id: string;
  title: string;
  columns: string[];
  rows: TableValue[][];
  note: string | null;
  /** Its rows counted in words, beside its title ("6 fields", "47 rollouts + 1 failed of 48 planned"): a bare "Run 6" reads as a run's number. */
  counted: string;
  /** The files and the rule that made its figures (said on hover of its title). */
  from?: string;
  /** Its columns of fractions, shown as percentages as every other rate of the window is. */
  shares?: string[];
  /** Each row's first value names a unit that opens as a transcript (Backend.transcript). */
  opens?: 'transcript';
}

/** One line of an event log, normalized: its own fields kept. */
export interface StreamEvent {
  episode: string;
  seq: number | null;
  t: number | null;
  ev: string;
  line: number | null;
  /** The byte just past its line: where a reader that has this event resumes. */
  end: number;
  fields: Record<string, unknown>;
}

/** Where a stream is read on from: just past the last event a viewer holds (a window whose connection came back). */
export interface StreamResume {
  offset: number;
  /** The line number at that offset; null when not known (the stream was opened mid-file). */
  line: number | null;
}

/** What changed in an open cell since the last delta. Only what changed is sent. */
export interface CellDelta {
  cellId: string;
  /** The summary fields that changed. */
  summary?: Partial<CellSummary>;
  /** Rows that are new or changed, by id. */
  episodes?: EpisodeRow[];
  versions?: VersionRow[];
  /** The format's tables, whole, when any changed. */
  tables?: DetailTable[];
  /** The programs, whole, when one was added or changed. */
  programs?: ProgramSnapshot[];
  /** Samples appended since the last delta. */
  vram?: VramSample[];
  /** New events of followed episodes. */
  events?: StreamEvent[];
  /** Problems met since the last delta (file and line). */
  problems?: Problem[];
}

export function frameSourceKey(source: FrameSource): string {
  return source.kind === 'episode' ? `episode:${source.episode}` : `${source.kind}:${source.version}:${source.seed}`;
}

/** One slot of a comparison: a policy version of a session on the chosen seed. */
export interface ComparedSlot {
  /** As typed: session:version. */
  slot: string;
  cellId: string;
  session: string;
  version: string;
  /** Whether the seed was a replay (evaluation seed) or a development episode of that version; null: no frames for it. */
  source: 'replay' | 'dev' | null;
  /** The seeds this slot has frames for (said in its tile when it has none for this one). */
  seedsWithFrames: string[];
  outcome: 'success' | 'failure' | 'unknown';
  frames: FrameSet;
}

export interface Comparison {
  seed: string;
  /** Seeds any slot has frames for, to choose from; `common`: those every slot has. */
  seeds: string[];
  common: string[];
  slots: ComparedSlot[];
}

/** A recording's progress; `url` (and `file`) once it is written, `error` when it failed. */
export interface RecordProgress {
  id: string;
  fraction: number;
  file?: string;
  url?: string;
  note?: string;
  error?: string;
}

/** Where an item of a transcript stands: seconds from the episode's start, its time, the event it came from, a frame it names. */
export interface TranscriptPlace {
  offsetS?: number;
  epochS?: number;
  seq?: number | null;
  /** A frame the item names (a tool result's observation), by its path in the episode's folder. */
  frame?: string;
  /** How long it took: a tool call to its result, a model call to its answer, a throttle pause. */
  durationS?: number;
}

/** What a model call was sent and used: its input messages (a log v3's pooled ones resolved) and its tokens, null where unsaid. */
export interface ModelCallSent {
  messages: number;
  inputTokens: number | null;
  outputTokens: number | null;
}

/** One step of a rollout as its transcript shows it, in order. */
export type TranscriptItem = TranscriptPlace &
  (
    /** `sent`: the messages the model call that wrote it was given, and its tokens, where the log says them (Inspect). */
    | { kind: 'input' | 'message'; role: string; text: string; sent?: ModelCallSent }
    | { kind: 'reasoning'; text: string }
    /** A tool call with its arguments (pretty JSON when they parse) and the output paired with it by call id. */
    | { kind: 'call'; name: string; callId: string | null; arguments: string; output: string | null }
    /** The episode's end: how it ended and what it scored, in words. */
    | { kind: 'outcome'; text: string }
    /** An output item of a type the transcript does not know, as JSON. */
    | { kind: 'other'; type: string; json: string }
  );

/** One rollout read like a transcript: its input, the response's items, then the verdict (a NeMo Gym row). */
export interface Transcript {
  unit: string;
  agent: string | null;
  items: TranscriptItem[];
  /** The final answer: the last message's text. */
  answer: string | null;
  reward: unknown;
  /** The environment's own fields (resolved, patch_exists, ...), whole. */
  verdict: Record<string, unknown>;
  /** A SWE rollout's model_patch, shown as a diff. */
  patch: string | null;
  /** What the harness observed of the rollout (NeMo Gym's ng_trajectory, else ng_agent_observations); null where the row has neither. */
  observed: Observed | null;
}

/** Token counts of one model call as the harness reported them: null is unknown, never zero. */
export interface ObservedTokens {
  prompt: number | null;
  completion: number | null;
  reasoning: number | null;
  total: number | null;
  cached: number | null;
}

export interface ObservedModelCall {
  id: string | null;
  responseId: string | null;
  model: string | null;
  durationMs: number | null;
  /** Time to the first token. */
  ttftMs: number | null;
  finishReason: string | null;
  /** The response's own status (`completed`, `incomplete`) and the HTTP status. */
  status: string | null;
  statusCode: number | null;
  errorCategory: string | null;
  tokens: ObservedTokens;
}

/** One thing that happened in an agent invocation, at `atS` seconds from the rollout's first observed time (null: not timed). */
export type ObservedStep = { atS: number | null } & (
  | { kind: 'turn'; turnNo: number; question: string | null; answer: string | null; reasoning: string | null; resolved: boolean | null; stepCount: number | null }
  | { kind: 'model'; call: ObservedModelCall }
  | { kind: 'tool'; callId: string; name: string | null; status: string; durationMs: number | null; timing: string | null; errorType: string | null; sandbox: string | null; output: string | null }
  | { kind: 'compaction'; trigger: string | null; tokensBefore: number | null; tokensAfter: number | null; outcome: string; summary: string | null }
);

/** An agent or subagent conversation; `depth` 0 for a root, a child one deeper than the invocation that spawned it. */
export interface ObservedInvocation {
  id: string;
  depth: number;
  parent: string | null;
  spawnedBy: string | null;
  status: string;
  durationMs: number | null;
  errorType: string | null;
  /** In time order (untimed steps after the timed ones, in the order given). */
  steps: ObservedStep[];
}

export interface ObservedSandbox {
  role: string;
  provider: string | null;
  id: string | null;
  outcome: string;
  exitCode: number | null;
  wallS: number | null;
  cpuS: number | null;
  peakMib: number | null;
  errorType: string | null;
}

/** What the harness could not observe or join exactly: its code, in words where the code is known. */
export interface ObservedGap {
  code: string;
  meaning: string;
  invocation: string | null;
  detail: string | null;
}

export interface Observed {
  source: 'ng_trajectory' | 'ng_agent_observations';
  /** Each parent before its children. */
  invocations: ObservedInvocation[];
  /** Model calls no invocation names. */
  unowned: ObservedModelCall[];
  sandboxes: ObservedSandbox[];
  gaps: ObservedGap[];
  /** The rollout's observed span, first to last time (s); null where nothing is timed. */
  spanS: number | null;
  /** The members as the row gives them. */
  json: string;
}
