// Launching UI runs: what the launch dialog shows and sends.

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
}

export interface LaunchPlan {
  name: string;
  cell: string;
  cwd: string;
  command: string[];
  env: Record<string, string>;
  gpu: number | null;
  /** Why the launch would be refused (a GPU below the minimum, none at all); null when it would start. */
  refused: string | null;
}

export type RunState = 'running' | 'exited' | 'crashed' | 'stopped' | 'ended';

export interface RunInfo {
  /** Unique for every launch: two runs of one name are two ids. */
  id: string;
  name: string;
  profile: string;
  cell: string;
  pid: number;
  gpu: number | null;
  startedAt: number;
  state: RunState;
  exitCode: number | null;
  canDrain: boolean;
  stderrTail: string[];
  /** The most GPU memory its processes held while Cellwatch sampled. */
  vramPeakMib: number | null;
}

export interface Launched {
  run: RunInfo;
  /** The new cell's id once Cellwatch sees it (null when the runner has not written it yet). */
  cellId: string | null;
}

/** A run's name is always ui_<...> in safe characters, so the board can never take it. */
export function uiName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[-.]+/, '');
  return safe.startsWith('ui_') ? safe : `ui_${safe.replace(/^ui[-_]?/, '')}`;
}
