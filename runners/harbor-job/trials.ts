import type { EpisodeUnit } from '../../shared/model';
import type { JsonObject } from '../common/json';
import { num, obj, str, timestampMs } from '../common/values';

/** A trial folder of the job, with its result once the trial ended (null while it runs). */
export interface Trial {
  dir: string;
  result: JsonObject | null;
}

/** A trial succeeds when its reward is at least 1; an ended trial without a reward fails. */
export function trialSucceeded(result: JsonObject): boolean {
  return (num(obj(obj(result.verifier_result).rewards).reward) ?? 0) >= 1;
}

/** Units pair across jobs by task name: the k-th attempt of a task (by started_at) is `task#k` for k > 1. */
export function trialUnits(ended: { dir: string; result: JsonObject }[]): EpisodeUnit[] {
  const ordered = [...ended].sort(
    (a, b) => (timestampMs(a.result.started_at) ?? 0) - (timestampMs(b.result.started_at) ?? 0) || a.dir.localeCompare(b.dir),
  );
  const attempts = new Map<string, number>();
  return ordered.map(({ dir, result }) => {
    const task = str(result.task_name) ?? dir.replace(/__[^_]+$/, '');
    const k = (attempts.get(task) ?? 0) + 1;
    attempts.set(task, k);
    const errored = obj(result.exception_info).exception_type !== undefined;
    return { id: k > 1 ? `${task}#${k}` : task, status: errored ? 'error' : 'ended', success: trialSucceeded(result), scored: true };
  });
}
