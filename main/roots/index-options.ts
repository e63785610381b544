// How a local index finds what changed, and how often it looks: its options and its timings.
import type { watch } from 'node:fs';

/** How long changes are gathered before the cells they touch are read. */
export const SETTLE_MS = 40;
/**
 * The safety sweep: a stat of everything each cell's last read looked at, nothing parsed. With the OS
 * watcher on it only backs it up (network file systems miss events); without, it is what finds changes.
 * A sweep of 10,000 cells costs about a second of a worker's time.
 */
export const SWEEP_MS = 5 * 60_000;
export const SWEEP_UNWATCHED_MS = 30_000;
/** How often running cells are looked at for having gone quiet (their state changes with time alone). */
export const AGE_CHECK_MS = 15_000;
/** A missing or unreadable root is looked at again this often. */
export const MISSING_RETRY_MS = 2000;

export interface IndexOptions {
  /** Watch with the OS (default true); off, only the sweep finds changes. */
  watch?: boolean;
  sweepMs?: number;
  ageCheckMs?: number;
  /** Where the index keeps what it read between starts (the data folder); absent: nothing kept. */
  cacheDir?: string;
  /** The OS's watch call: tests stand in for an OS at its limit of watches. */
  osWatch?: typeof watch;
  /**
   * Check the event logs in the same pass as the rows (the CLI, which shows nothing until all is read);
   * by default rows go out first and logs are checked after, as the window wants.
   */
  logsWithRows?: boolean;
}
