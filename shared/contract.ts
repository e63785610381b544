// The one contract between the UI and the core. Every call the renderer can make and every event it
// can receive is named here; app/ (IPC) and main/server (WebSocket) carry exactly these.
import type { Alert, AlertPrefs, AlertsState } from './alerts';
import type { Launched, LaunchPlan, LaunchRequest, ProfileInfo, RunInfo } from './launch';
import type { PairedTest } from './mcnemar';
import type { CellDelta, CellDetail, Comparison, FrameSet, FrameSource, RecordProgress, StreamEvent, StreamResume, Transcript } from './cell-detail';
import type { GpuSample, GpuStatus, SystemSample } from './machine';
import type { AppInfo, CellId, CellsDelta, CellSummary, FormatName, Problem, RootStatus } from './model';
import type { BoardComparison } from './board-comparisons';
import type { FeedState, HostState, Presence } from './presence';

export interface Backend {
  getInfo(): Promise<AppInfo>;
  listRoots(): Promise<RootStatus[]>;
  /** Adds and saves a runs root; returns it as scanned. */
  addRoot(path: string): Promise<RootStatus>;
  removeRoot(path: string): Promise<void>;
  /** Cells of one runs root, or of every root when none is named. */
  listCells(root?: string): Promise<CellSummary[]>;
  /** Asks the user for a folder (Electron only); null when cancelled. */
  pickFolder(): Promise<string | null>;
  /** The exact paired McNemar test of two listed cells (ids), or of two policy versions (`<id>@vNNN`). */
  pairedTest(a: string, b: string): Promise<PairedTest>;
  /** The boards of the listed cells: each board's rule and its Holm-corrected one-field comparisons (cells come from listCells). */
  board(): Promise<BoardReport>;
  /** Starts watching a cell: its detail now, `cellChanged` deltas after. */
  openCell(id: CellId): Promise<CellDetail>;
  closeCell(id: CellId): Promise<void>;
  /** Picks the scorer an Inspect log's outcomes are read by (null: its first), for every view and the CLI; saved in the settings. */
  setScorer(id: CellId, scorer: string | null): Promise<void>;
  /**
   * The events of one stream (an episode, or the cell's log) from the end of its file, or from `resume` (just past
   * the last event the window holds); new ones arrive as deltas.
   */
  openStream(id: CellId, stream: string, resume?: StreamResume): Promise<StreamOpened>;
  closeStream(id: CellId, stream: string): Promise<void>;
  /** One unit of a cell read like a transcript (a NeMo Gym rollout: `<task>#<rollout>`, or `<agent>/<task>#<rollout>`). */
  transcript(id: CellId, unit: string): Promise<Transcript>;
  /** The frames of an episode, or of a policy version's development or replay episode on a seed, as URLs. */
  listFrames(id: CellId, source: FrameSource): Promise<FrameSet>;
  /** GPUs of this machine, or of an SSH host: recent samples and what went wrong; new samples arrive as `gpuSample`. */
  gpuStatus(host?: string): Promise<GpuStatus>;
  /** CPU, memory, the disks that hold the runs roots, and GPUs found without nvidia-smi. */
  systemStatus(): Promise<SystemSample>;
  /** The profiles, their knobs' defaults as a launch on `target` (default: this machine) fills them. */
  listProfiles(target?: string): Promise<ProfileInfo[]>;
  /** The exact command a launch would run, and its GPU: the dialog's dry run. */
  planLaunch(request: LaunchRequest): Promise<LaunchPlan>;
  /** Starts a UI run; its cell's folder becomes a runs root when none holds it. */
  launchRun(request: LaunchRequest): Promise<Launched>;
  listRuns(): Promise<RunInfo[]>;
  /** SIGTERM to the run's process group, SIGKILL after a grace period. By the run's id. */
  stopRun(id: string): Promise<RunInfo>;
  /** DRAIN and SIGUSR1 (coding-agent); returns what the runner printed, its resume spec. By the run's id. */
  drainRun(id: string): Promise<string[]>;
  /**
   * Relaunches an ended run into its own cell with a resume spec (what a drain printed, the units to run
   * again), by the run's id; `spec` is empty for a run whose runner finds what its cell lacks itself.
   */
  resumeRun(id: string, spec: string): Promise<Launched>;
  /** The dry run of a resume: the exact command it would run, its GPU, or why it would be refused. By the run's id. */
  planResume(id: string, spec: string): Promise<LaunchPlan>;
  /** Up to six policy versions on one seed (`s1:v008,s2:last`): each slot's frames and outcome. */
  compare(slots: string, seed?: string): Promise<Comparison>;
  /** Starts recording the comparison to mp4; progress arrives as `recordProgress` with this id. */
  record(slots: string, seed: string, seconds: number, fps: number): Promise<{ id: string }>;
  /** SSH hosts of the runs roots, with their connection state. */
  listHosts(): Promise<HostStatus[]>;
  /** Every host at a glance: this machine and each SSH host, its connection, GPUs, cells and runs. */
  listFleet(): Promise<FleetHost[]>;
  /** The user accepted the host's unknown key, having seen its fingerprint. */
  acceptHostKey(alias: string): Promise<void>;
  /** A passphrase for an encrypted key file, kept in memory only. */
  unlockHostKey(alias: string, keyFile: string, passphrase: string): Promise<void>;
  reconnectHost(alias: string): Promise<void>;
  /** A text log of a cell (a launched run's stdout or stderr, a runner's driver log) from byte `from`, or its end when null; null when the cell has none. */
  readLog(id: CellId, file: LogFile, from: number | null): Promise<LogChunk | null>;
  /** The alerts kept (the last 1,000), what was read, and the alert settings; new ones arrive as `alertRaised`. */
  listAlerts(): Promise<AlertsState>;
  /** The notification centre was looked at: alerts up to `until` (epoch ms) are read. */
  markAlertsRead(until: number): Promise<AlertsState>;
  /** Kinds on and off, muted cells, the stall threshold, pinned paired tests. */
  setAlertPrefs(prefs: AlertPrefs): Promise<AlertsState>;
}

/** One board of a format (its protocol, or a bigym task): who is on it, and which differences are real. */
export interface BoardInfo {
  name: string;
  format: FormatName;
  rule: string;
  /** One-field comparisons on this board, and how many of them survive Holm's correction. */
  compared: number;
  real: number;
  /** Its comparisons of lowest Holm-adjusted p, the real ones first (`cellwatch board --json` prints them all). */
  comparisons: BoardComparison[];
  /** Each cell's real differences won and lost, by path; a cell with none is absent. */
  standing: Record<string, { won: number; lost: number }>;
}

export interface BoardReport {
  boards: BoardInfo[];
}

/** An SSH host's connection as the window shows it. */
export interface HostStatus {
  alias: string;
  state: HostState;
  problem: Problem | null;
  retryAt: number | null;
  unknownKey: string | null;
  lockedKey: string | null;
  /** The round trip of a request over the connection, last measured. */
  latencyMs: number | null;
  /** What carries the connection: `ssh2`, or `OpenSSH (why)`; null before the first one. */
  via: string | null;
  /** How commands run there, once the first has: `python3` (every command and stream a process of one mux, one login shell), or `sh` (helpers, and a login shell a stream). */
  commands?: 'python3' | 'sh';
  /** The host's change feed; absent for a host that has none yet. */
  feed?: FeedStatus;
}

/** A host as the Fleet view shows it: this machine or an SSH host, at a glance. */
export interface FleetHost {
  /** 'local' for this machine, else the SSH alias. */
  alias: string;
  /** The connection; null for this machine. */
  connection: HostStatus | null;
  /** GPU memory in use now, over all its GPUs; null without a sample. */
  gpus: { count: number; usedMib: number; totalMib: number } | null;
  /** The share of GPU memory in use, one point a sample over the last minutes, oldest first. */
  gpuTrend: number[];
  cells: number;
  runningCells: number;
  /** Launched runs running or queued there. */
  launchedRuns: number;
  /** Every run launched there, ended ones too. */
  launchedTotal: number;
  /** Successes over scored episodes of its running cells; null when none is scored. */
  successRate: number | null;
  /** The newest change seen in its cells' files. */
  lastChangeAt: number | null;
  problems: Problem[];
}

export interface FeedStatus {
  /** inotify (inotifywait on the host) or find (a loop listing sizes and mtimes); null until probed. */
  mode: 'inotify' | 'python' | 'find' | null;
  state: FeedState;
  /** When the feed last told of a change. */
  lastChangeAt: number | null;
  problem: string | null;
}

export interface StreamOpened {
  events: StreamEvent[];
  problems: Problem[];
  /** True when the log is long and only its end was read. */
  startedMidFile: boolean;
}

/** What the core tells windows. Each is heard by every window, unless it says whose it is. */
export interface BackendEvents {
  /** A root's state, count, progress or problems changed; its cells come as `cellsChanged`. */
  rootsChanged: RootStatus[];
  cellsChanged: CellsDelta;
  /** Heard by the windows that have the cell open. */
  cellChanged: CellDelta;
  /** This machine's, heard by every window; an SSH host's, by the windows that asked for its GPUs (`gpuStatus`, `listFleet`). */
  gpuSample: GpuSample;
  /** Heard by the window that started the recording. */
  recordProgress: RecordProgress;
  hostsChanged: HostStatus[];
  alertRaised: Alert;
  /** The launched runs, each time the list differs (a run started, changed state, ended). */
  runsChanged: RunInfo[];
}

/** The text logs a cell may have: what a launched run printed, and a runner's own log. */
/** A cell's text logs, as the Logs tab lists those it has: a launch's output, a runner's driver log, a bigym session's transcript, an evopolicygym agent's stdout. */
export const LOG_FILES = ['stdout.log', 'stderr.log', 'driver.log', 'transcript.md', 'agent/stdout.jsonl'] as const;
export type LogFile = (typeof LOG_FILES)[number];

export interface LogChunk {
  /** Complete lines from the byte asked for; a partial last line waits for the next read. */
  text: string;
  /** Where the next read goes on from. */
  offset: number;
  /** The read started past the file's start (its end only), or over again because the file shrank. */
  restarted: boolean;
}

export type Method = keyof Backend;
export type EventName = keyof BackendEvents;

// Keyed by the union, so adding an event without naming it here fails to compile. (The methods are named
// once, by the dispatcher's argument schemas in main/dispatcher.ts.)
const eventNames: Record<EventName, true> = { rootsChanged: true, cellsChanged: true, cellChanged: true, gpuSample: true, recordProgress: true, hostsChanged: true, alertRaised: true, runsChanged: true };
export const EVENTS = Object.keys(eventNames) as readonly EventName[];

export type Unsubscribe = () => void;

/** What the renderer holds: calls return promises, listeners return their unsubscribe function. */
export interface Transport {
  call<M extends Method>(method: M, ...args: Parameters<Backend[M]>): ReturnType<Backend[M]>;
  on<E extends EventName>(event: E, listener: (payload: BackendEvents[E]) => void): Unsubscribe;
  /**
   * The connection came back after a drop: the core on the other side holds nothing of this window now, so
   * what it had open is opened again and what it listed is listed again (events of the gap were missed).
   */
  onReopened(listener: () => void): Unsubscribe;
  /** Whether the core answers now: live, or connecting / reconnecting to it (a served window's socket). */
  readonly presence: Presence;
  onPresence(listener: (presence: Presence) => void): Unsubscribe;
}

/** The name the Electron preload exposes the transport under (`window.cellwatch`). */
export const BRIDGE_NAME = 'cellwatch';
/** The IPC channels the bridge uses. */
export const IPC_CALL = 'cellwatch:call';
export const IPC_EVENT = 'cellwatch:event';

// WebSocket messages in serve mode.
/** The most bytes of a call serve takes: a connection that sends more is closed (ws's maxPayload). */
export const MAX_CALL_BYTES = 1 << 20;

export interface WireCall {
  id: number;
  method: string;
  args: unknown[];
}
/** An error as it crosses a transport: its kind (`NotFoundError`, `DispatchError`, `SlotError`, ...) and message. */
export interface WireError {
  name: string;
  message: string;
}
/** A call's outcome, as both transports carry it. */
export type CallReply = { ok: true; result: unknown } | { ok: false; error: WireError };
export type WireReply = CallReply & { id: number };
export interface WireEvent {
  event: EventName;
  payload: unknown;
}

/** The error a failed call rejects with in the window: its kind kept as `name`. */
export class CallError extends Error {
  constructor(wire: WireError) {
    super(wire.message);
    this.name = wire.name;
  }
}

/** The value of a reply, or its error thrown as a CallError. */
export function unwrapReply(reply: CallReply): unknown {
  if (reply.ok) return reply.result;
  throw new CallError(reply.error);
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(eventNames, name);
}
