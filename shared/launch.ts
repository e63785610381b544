// Launching UI runs: what the launch dialog shows and sends.
import { isLocal, LOCAL } from './address';

export interface KnobInfo {
  key: string;
  label: string;
  default: string;
  choices?: string[];
}

export interface ProfileInfo {
  name: string;
  description: string;
  format: string;
  gpu: boolean;
  /** Drain writes DRAIN into the cell and sends SIGUSR1 (coding-agent). */
  canDrain: boolean;
  knobs: KnobInfo[];
}

export interface LaunchRequest {
  profile: string;
  values: Record<string, string>;
  /** The run's whole name; it always gets the ui_ prefix. */
  name?: string;
  /** A word of your own in the run's name, in place of its time stamp: the profile's other parts stay. */
  label?: string;
  gpu?: number;
  minFreeMib?: number;
  /** Launch below the free-memory minimum, or without a GPU. */
  override?: boolean;
  /** Where it starts (see `parseTarget`); this machine when absent. */
  target?: string;
  /** How a Slurm target submits it. */
  slurm?: SlurmKnobs;
}

/** What `sbatch` is given beyond the profile's command, as typed in the dialog. */
export interface SlurmKnobs {
  /** GPUs asked for with --gres=gpu:N; 0 asks for none. Default: 1 for a profile that needs a GPU, else 0. */
  gpus?: number;
  /** --time, as sbatch takes it (`2:00:00`); empty: the partition's default. */
  time?: string;
  partition?: string;
  /** More sbatch arguments, split as a shell would. */
  extra?: string;
}

export type LaunchTarget = { kind: 'here' } | { kind: 'ssh'; host: string } | { kind: 'slurm'; host: string | null };

const ALIAS = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/** `local`, an SSH host's alias (`gpu1`), `slurm` (sbatch here) or `slurm@login1` (sbatch on an SSH host). */
export function parseTarget(target: string | undefined): LaunchTarget {
  const text = (target ?? LOCAL).trim();
  if (text === '' || isLocal(text)) return { kind: 'here' };
  if (text === 'slurm') return { kind: 'slurm', host: null };
  const slurm = /^slurm@(.+)$/.exec(text);
  const host = slurm ? (slurm[1] as string) : text;
  if (!ALIAS.test(host)) throw new Error(`launch target ${JSON.stringify(text)} is not local, an SSH host alias, slurm or slurm@ALIAS`);
  return slurm ? { kind: 'slurm', host } : { kind: 'ssh', host };
}

/** The host whose files a target's runs write: 'local' or an SSH alias. */
export function targetHost(target: LaunchTarget): string {
  return target.kind === 'here' ? LOCAL : target.kind === 'ssh' ? target.host : (target.host ?? LOCAL);
}

export interface LaunchPlan {
  name: string;
  cell: string;
  cwd: string;
  command: string[];
  env: Record<string, string>;
  gpu: number | null;
  /** Where it starts, as `parseTarget` reads it. */
  target: string;
  /** The exact sbatch line a Slurm target submits (its --wrap holds the command); null elsewhere. */
  submit: string[] | null;
  /** Why the launch would be refused (a GPU below the minimum, none at all); null when it would start. */
  refused: string | null;
}

/** `pending`: a Slurm job waiting in the queue. */
export type RunState = 'pending' | 'running' | 'exited' | 'crashed' | 'stopped' | 'ended';

/** A Slurm job as squeue, sacct or scontrol last told it. */
export interface SlurmJob {
  id: string;
  /** Slurm's own word: PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT, ... */
  state: string;
  /** Why it waits (PENDING only): Resources, Priority, ... */
  reason: string | null;
  node: string | null;
  exitCode: number | null;
}

/** What a profile's resume knob takes: the units to run again, or (`missing`) the word that the runner finds them itself. */
export type ResumeKind = 'episodes' | 'missing';

export interface RunInfo {
  /** Unique for every launch: two runs of one name are two ids. */
  id: string;
  name: string;
  profile: string;
  /** Where it was started (`parseTarget`). */
  target: string;
  /** The host holding its cell: 'local' or an SSH alias. */
  host: string;
  cell: string;
  /** The listed cell's id (host and path). */
  cellId: string;
  /** Its process group (null for a Slurm job). */
  pid: number | null;
  job: SlurmJob | null;
  gpu: number | null;
  startedAt: number;
  /** When it was seen to end (within the few seconds between looks); null while it runs. */
  endedAt: number | null;
  state: RunState;
  exitCode: number | null;
  canDrain: boolean;
  /**
   * How Resume relaunches it into its cell, where its profile resumes and its knobs are known: `episodes`, with
   * the units given (coding-agent's --episodes); `missing`, the runner itself re-running every unit its cell
   * lacks (NeMo Gym's +resume_from_cache); null: it does not resume.
   */
  resumes: ResumeKind | null;
  stderrTail: string[];
  /** The most GPU memory its processes held while Cellwatch sampled. */
  vramPeakMib: number | null;
  /** Why its state is as last seen (its host unreachable, squeue failing); null when it is now. */
  problem: string | null;
}

export interface Launched {
  run: RunInfo;
  /** The new cell's id once Cellwatch sees it (null when the runner has not written it yet). */
  cellId: string | null;
  /** What failed after the run started (its cell not watched, the registry not saved): the run goes on. */
  problem: string | null;
}

/** A run's state with its job's, as a user reads it: `pending (PENDING, Resources)`, `crashed (exit 3, FAILED)`. */
export function runStateText(run: Pick<RunInfo, 'state' | 'exitCode' | 'job'>): string {
  const job = run.job;
  const why = [run.exitCode !== null && run.state === 'crashed' ? `exit ${run.exitCode}` : null, job && job.state !== run.state.toUpperCase() ? job.state : null, job?.reason ?? null].filter(Boolean);
  return `${run.state}${why.length ? ` (${why.join(', ')})` : ''}`;
}

/** A Slurm job as one reads it: `job 12 on node3`. */
export const jobText = (job: SlurmJob) => `job ${job.id}${job.node ? ` on ${job.node}` : ''}`;

/** How long a run ran, or has run so far: `45s`, `12m05s`, `3h07m`. */
export function runElapsed(run: Pick<RunInfo, 'startedAt' | 'endedAt'>, now: number): string {
  const seconds = Math.max(0, Math.round(((run.endedAt ?? now) - run.startedAt) / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return h ? `${h}h${String(m).padStart(2, '0')}m` : m ? `${m}m${String(seconds % 60).padStart(2, '0')}s` : `${seconds}s`;
}

/** What a launch writes in the run's cell itself: its output, and on an SSH host its pid and exit code. */
export const LAUNCH_FILES = { stdout: 'stdout.log', stderr: 'stderr.log', pid: 'launch.pid', exit: 'launch.exit' } as const;
export const LAUNCHER_FILES: readonly string[] = Object.values(LAUNCH_FILES);

/** A run's name is always ui_<...> in safe characters, so the board can never take it. */
export function uiName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[-.]+/, '');
  return safe.startsWith('ui_') ? safe : `ui_${safe.replace(/^ui[-_]?/, '')}`;
}

/**
 * The episode list of a resume spec as a drained coding-agent run prints it (`resume: --episodes 7,8`, a
 * whole `stdrun.py run NAME --episodes 7,8` line) or the list alone (`7, 8, 12`, ranges `3-5`).
 */
export function episodesOfSpec(spec: string): string {
  const flagged = /--episodes(?:=|\s+)(['"]?)([^'"\s]+)\1/.exec(spec)?.[2];
  const list = (flagged ?? spec).replace(/\s+/g, '');
  if (!/^\d+(?:[-:]\d+)?(?:,\d+(?:[-:]\d+)?)*$/.test(list)) throw new Error(`no episode list in ${JSON.stringify(spec.trim().slice(0, 200))}: paste what the drained run printed (--episodes 7,8) or the list itself (7,8,12)`);
  return list;
}

/** Whether `listed` names its cell by a pattern, to be settled once the runner writes the file. */
export const listedByPattern = (listed: string) => listed.slice(listed.lastIndexOf('/') + 1).includes('*');

/**
 * Whether a cell (by id or path) is the one a launch lists as `listed`: the same, or, where the runner names
 * its own file (Inspect's `{created}_{task}_{id}.eval`), a file of the same folder matching the `*`s of
 * `listed`'s file name.
 */
export function isListedAs(listed: string, cell: string): boolean {
  if (!listedByPattern(listed)) return listed === cell;
  const at = listed.lastIndexOf('/');
  const name = listed.slice(at + 1);
  if (cell.lastIndexOf('/') !== at || !cell.startsWith(listed.slice(0, at + 1))) return false;
  const pattern = name.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${pattern}$`, 's').test(cell.slice(at + 1));
}

/** Of the cells (ids) a launch lists as `listed`, the first: several match where a runner retried, and Inspect's names start with their time. */
export function firstListedAs(listed: string, cells: readonly string[]): string | null {
  return cells.filter((id) => isListedAs(listed, id)).sort()[0] ?? null;
}
