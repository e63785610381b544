// Alerts: what Cellwatch tells the user without being asked (a run finished, failed, stalled, ...).
import type { CellId } from './model';

export type AlertKind = 'finished' | 'evaluated' | 'interrupted' | 'crashed' | 'eval_failed' | 'void' | 'budget' | 'throttled' | 'stalled' | 'stuck' | 'host_down' | 'gpu_low' | 'paired';

/** Each kind as the settings list names it; keyed by the union, so a new kind must be named here. */
export const ALERT_KINDS: Record<AlertKind, string> = {
  finished: 'a cell finishes',
  evaluated: "a policy version's evaluation lands during a session",
  interrupted: 'a session is interrupted',
  crashed: 'a launched run exits with an error (a Slurm job fails)',
  eval_failed: 'an evaluation fails (EVAL FAILED)',
  void: 'a run ends void (no policy to score)',
  budget: 'a budget is used up',
  throttled: "a run's model service throttles it for a minute or more (its episode clock paused)",
  stalled: 'a running cell stalls',
  stuck: 'a running unit is stuck (no event for 10 minutes) or looping (the same call 5 times in a row)',
  host_down: 'an SSH host is unreachable for over a minute',
  gpu_low: "a launched run's GPU drops under the free-memory guard",
  paired: 'a pinned paired test crosses p < 0.05',
};

export interface Alert {
  /** What makes it the same alert: one event never raises two. */
  key: string;
  kind: AlertKind;
  /** Epoch milliseconds. */
  at: number;
  /** The cell it concerns, when one does; clicking the alert opens it. */
  cell: CellId | null;
  /** What the list shows as its subject: a cell's name, a host, a pair. */
  subject: string;
  message: string;
  /** The cell view's tab that shows what the alert is about (the episodes of a stalled run, the versions of a failed evaluation). */
  tab?: CellTab;
}

/** The cell view's tabs, in their order; a link or an alert names one. */
export const CELL_TABS = ['overview', 'episodes', 'versions', 'programs', 'tables', 'transcript', 'logs', 'problems'] as const;
export type CellTab = (typeof CELL_TABS)[number];

export interface AlertPrefs {
  /** Kinds turned off everywhere. */
  off: AlertKind[];
  /** Per cell, the kinds it raises none of (every kind: the cell is muted). */
  cellOff: Record<CellId, AlertKind[]>;
  /** A running cell with no new bytes for this long has stalled (a throttle countdown does not count). */
  stallSeconds: number;
  /** Paired tests to watch: cell ids, or `<id>@vNNN` policy versions. */
  pinned: { a: string; b: string }[];
}

export const DEFAULT_ALERT_PREFS: AlertPrefs = { off: [], cellOff: {}, stallSeconds: 600, pinned: [] };

export interface AlertsState {
  /** Newest last; the last 1,000 are kept. */
  alerts: Alert[];
  /** Alerts at or before this time have been seen in the notification centre. */
  readUntil: number;
  prefs: AlertPrefs;
}
