// A hosts file's `benchmarks:` and `runs:` (seed 001): which of a root's cells are listed.
import type { CellsDelta, CellSummary, RootLimit, RootStatus } from '../../shared/model';

/** A field of a run id as seed 001 writes it: lower case, every other separator `_`. */
const field = (value: string) => value.toLowerCase().replace(/[^a-z0-9]+/g, '_');
/**
 * A model as a run id writes it: the vendor's name without a provider prefix, family and version written
 * together (gpt-6-luna is gpt6_luna): compared with every separator dropped.
 */
const modelKey = (value: string) => (value.split('/').at(-1) as string).toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Whether a cell is the run `<harness>-<model>-<effort>[-<tag>]`: its labels' harness, model and effort.
 * An effort of `default` is also a cell whose effort cannot be established; a tag is not in a cell's
 * files, so a tagged id names the cells of its three fields.
 */
export function isRun(labels: CellSummary['labels'], runId: string): boolean {
  const [harness, model, effort] = runId.split('-');
  if (!harness || !model || !effort || !labels.harness || !labels.model) return false;
  const effortMatches = labels.effort ? field(labels.effort) === effort : effort === 'default';
  return field(labels.harness) === harness && modelKey(labels.model) === modelKey(model) && effortMatches;
}

/**
 * Whether a cell runs the benchmark: its format is it, or its files name it, whole or as the start of a
 * task folder (`robolab-clean-up-toys-i00` is robolab's, as seed 001's `task_dir` patterns write them).
 */
export function isOfBenchmark(cell: Pick<CellSummary, 'format' | 'benchmarks'>, benchmark: string): boolean {
  return cell.format === benchmark || cell.benchmarks.some((name) => name === benchmark || name.startsWith(`${benchmark}-`));
}

/** Whether the limit lists the cell: one of its benchmarks and one of its runs, where it names any. */
export function withinLimit(cell: Pick<CellSummary, 'format' | 'benchmarks' | 'labels'>, limit: RootLimit): boolean {
  return (limit.benchmarks.length === 0 || limit.benchmarks.some((b) => isOfBenchmark(cell, b))) && (limit.runs.length === 0 || limit.runs.some((run) => isRun(cell.labels, run)));
}

/** A root's rows as its limit lists them (all, without one). */
export const listedRows = (rows: CellSummary[], limit: RootLimit | null): CellSummary[] => (limit ? rows.filter((row) => withinLimit(row, limit)) : rows);

/** A delta of a root's index as the window gets it: only the cells the limit lists (one that leaves it is removed). */
export function limitedDelta(delta: CellsDelta, limit: RootLimit | null): CellsDelta {
  if (!limit) return delta;
  const leaving = delta.changed.filter((c) => !withinLimit(c, limit)).map((c) => c.id);
  return {
    ...delta,
    added: delta.added.filter((c) => withinLimit(c, limit)),
    changed: delta.changed.filter((c) => withinLimit(c, limit)),
    removed: [...delta.removed, ...leaving],
  };
}

/** A root's status under its limit: the cells it lists counted, and how many it hides. */
export function limitedStatus(status: Omit<RootStatus, 'limit'>, rows: CellSummary[], limit: RootLimit | null): RootStatus {
  if (!limit) return { ...status, limit: null };
  // Counted, not presented: a status is asked for at every change of a root of thousands of cells.
  const listed = rows.filter((row) => withinLimit(row, limit)).length;
  return { ...status, cellCount: listed, limit: { ...limit, hidden: rows.length - listed } };
}
