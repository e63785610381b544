import type { EpisodeUnit, Problem } from '../../shared/model';
import { oneOutcome } from '../common/integrity';
import type { JsonObject } from '../common/json';
import { num, obj, str, timestampMs } from '../common/values';

/** A trial folder of the job, with its result once the trial ended (null while it runs). */
export interface Trial {
  dir: string;
  result: JsonObject | null;
}

/** An ended trial; `repeated` when the job gives it twice with two outcomes (then it is not scored). */
export interface EndedTrial {
  dir: string;
  result: JsonObject;
  repeated?: boolean;
}

/** A trial succeeds when its reward is at least 1; an ended trial without a reward fails. */
export function trialSucceeded(result: JsonObject): boolean {
  return (num(obj(obj(result.verifier_result).rewards).reward) ?? 0) >= 1;
}

/** A trial's name as its result gives it (Harbor names its folder the same), else its folder's. */
const trialName = ({ dir, result }: EndedTrial) => str(result.trial_name) ?? dir;

/**
 * Each ended trial once, by its name: a trial folder copied beside its original (a backup, a copy to look
 * at) gives the same trial twice. The repeat is an integrity problem of the job naming both folders
 * (oneOutcome); only the first folder counts, and it is not scored when the two outcomes differ.
 */
export function oneTrialEach(trials: readonly Trial[], job: string): { ended: EndedTrial[]; integrity: Problem[] } {
  const all = trials.flatMap(({ dir, result }) => (result ? [{ dir, result }] : []));
  const unitOf = (entry: unknown): EpisodeUnit => {
    const trial = entry as EndedTrial;
    return { id: trialName(trial), status: 'ended', success: trialSucceeded(trial.result), scored: true };
  };
  const { units, problems } = oneOutcome(all, unitOf, (i) => (all[i] as EndedTrial).dir, job, 'trial');
  if (!problems.length) return { ended: all, integrity: [] };
  const repeated = new Set(units.filter((u) => u.status === 'repeated').map((u) => u.id));
  const seen = new Set<string>();
  const ended = all.filter((t) => !seen.has(trialName(t)) && seen.add(trialName(t))).map((t) => ({ ...t, repeated: repeated.has(trialName(t)) }));
  return { ended, integrity: problems };
}

/** Units pair across jobs by task name: the k-th attempt of a task (by started_at) is `task#k` for k > 1. */
export function trialUnits(ended: readonly EndedTrial[]): EpisodeUnit[] {
  const ordered = [...ended].sort(
    (a, b) => (timestampMs(a.result.started_at) ?? 0) - (timestampMs(b.result.started_at) ?? 0) || a.dir.localeCompare(b.dir),
  );
  const attempts = new Map<string, number>();
  return ordered.map(({ dir, result, repeated }) => {
    const task = str(result.task_name) ?? dir.replace(/__[^_]+$/, '');
    const k = (attempts.get(task) ?? 0) + 1;
    attempts.set(task, k);
    const id = k > 1 ? `${task}#${k}` : task;
    if (repeated) return { id, status: 'repeated', success: null, scored: false };
    const errored = obj(result.exception_info).exception_type !== undefined;
    return { id, status: errored ? 'error' : 'ended', success: trialSucceeded(result), scored: true };
  });
}
