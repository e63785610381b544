import { LAUNCH_FILES, type ResumeKind, type RunState, type SlurmJob } from '../../shared/launch';
import type { RenderedRun } from './profiles';

/** A run this app launched, as the registry (launched.json) keeps it. */
export interface LaunchedRun {
  /** Unique for every launch, so a stop or drain reaches exactly this run. */
  id: string;
  name: string;
  profile: string;
  format: RenderedRun['format'];
  /** Where it was started (`parseTarget`). */
  target: string;
  /** The host holding its cell: 'local' or an SSH alias. */
  host: string;
  cell: string;
  /** Where its cell is listed (RenderedRun.listed); absent in runs saved before cells could be files: the folder. */
  listed?: string;
  command: string[];
  /** Its process group's leader; null for a Slurm job. */
  pid: number | null;
  /** The process's start time (clock ticks since boot, from /proc): a pid reused by another process has another. */
  pidStart: string | null;
  /** The Slurm job id. */
  job: string | null;
  gpu: number | null;
  startedAt: number;
  canDrain: boolean;
  /** Its knobs as rendered, and the one a resume spec goes in (absent for runs saved before resumes). */
  values?: Record<string, string>;
  resumeKnob?: string;
  /** What the resume knob takes (absent in runs saved before: episodes). */
  resumeSpec?: ResumeKind;
  /** Its logs as the launch made them; absent for a Slurm job (Slurm makes them) and runs saved before. */
  logs?: LogIds;
  /** Set when the process ended while Cellwatch was its parent (this machine). */
  exit?: { code: number | null; signal: string | null; at: number };
  stoppedByUser?: boolean;
  /** When it was first seen ended (its exit, where this app was its parent). */
  endedAt?: number;
  /** What its place said last: shown while the place cannot be asked (a host unreachable). */
  seen?: Seen;
}

/** Each log's device and inode (`DEV:INO`), where the place can say them: a resume appends only to these files. */
export interface LogIds {
  stdout: string;
  stderr: string;
}

export interface Seen {
  state: RunState;
  exitCode: number | null;
  job: SlurmJob | null;
}

/** What a launch starts: the rendered run, its environment, and for Slurm the exact sbatch line. */
export interface Start {
  run: RenderedRun;
  env: Record<string, string>;
  submit: string[] | null;
  /** Goes on in the run's existing cell (a resume), appending to its logs; else the cell must be new. */
  resume?: boolean;
  /** For a resume: the logs the launch made, which the logs found must still be. */
  logs?: LogIds;
}

/** Where runs start and how their state is read and changed: this machine, an SSH host, a Slurm cluster. */
export interface RunPlace {
  start(id: string, start: Start): Promise<Pick<LaunchedRun, 'pid' | 'pidStart' | 'job' | 'logs'>>;
  /** The state of each of these runs (all of this place), by id; rejects when the place cannot be asked now. */
  look(runs: LaunchedRun[]): Promise<Map<string, Seen>>;
  /** SIGTERM, then SIGKILL after `graceMs` (or the scheduler's cancel); resolves once it is gone. */
  stop(run: LaunchedRun, graceMs: number): Promise<void>;
  /** The profile's drain (DRAIN in the cell, SIGUSR1); what the run printed on stdout within `waitMs`. */
  drain(run: LaunchedRun, waitMs: number): Promise<string[]>;
  /** The last `lines` lines of a file of the run's cell (stderr.log). */
  tail(run: LaunchedRun, file: string, lines: number): Promise<string[]>;
}

/** Why a launch refuses its cell's folder: it exists, and a run may have filled it with links already. */
export const cellExists = (cell: string) => `${cell} exists already: a launch makes a new cell; choose another name or label`;

/** Why a resume refuses its cell: only the run's own folder, never a link in its place or in its logs' place. */
export const notResumable = (path: string) => `${path} is a link, or not a folder: a resume goes on only in the run's own cell, and never writes through a link`;
/** A log with another name elsewhere (a hard link the run made): appending to it would write outside the cell. */
export const sharedLog = (path: string) => `${path} has another name elsewhere (a hard link): a resume never appends to a file outside the run's cell`;

/** A log that is another file than the launch made (moved or copied into the cell since): not appended to. */
export const replacedLog = (path: string) => `${path} is not the file the launch made (another device or inode): a resume appends only to the run's own log`;

/** The sentinel a drain writes in a cell whose profile drains by sentinel; a resume takes it back, or the run would drain at once. */
export const DRAIN = 'DRAIN';

export const STDOUT = LAUNCH_FILES.stdout;
export const STDERR = LAUNCH_FILES.stderr;
