// A collection's rewards as counted: a rollout scores when its reward is a number, succeeds at 1 or more
// (formats.md section 5).
import type { NemoRow } from './row-block';

/** A rollout succeeds when its reward is at least 1; a reward that is no number is not scored. */
export const scoredReward = (row: Pick<NemoRow, 'reward'>): number | null => (typeof row.reward === 'number' && Number.isFinite(row.reward) ? row.reward : null);

export interface RewardStats {
  /** Rollouts with a numeric reward. */
  n: number;
  successes: number;
  sum: number;
}

export const emptyStats = (): RewardStats => ({ n: 0, successes: 0, sum: 0 });

const succeeds = (reward: number) => reward >= 1;

/** Whether a rollout of this reward (scoredReward) succeeded (reward >= 1); null when it is not scored. */
export const successOf = (reward: number | null): boolean | null => (reward === null ? null : succeeds(reward));

export function addReward(stats: RewardStats, reward: number | null): void {
  if (reward === null) return;
  stats.n++;
  stats.sum += reward;
  if (succeeds(reward)) stats.successes++;
}

/** A rollout's outcome in words: success, failure, or no reward. */
export const outcomeWord = (success: boolean | null) => (success === null ? 'no reward' : success ? 'success' : 'failure');

export const meanOf = (stats: RewardStats) => (stats.n ? stats.sum / stats.n : null);

/** A task's rollouts: its scored rewards counted, one object a task (100,000 tasks are read). */
export interface TaskStats extends RewardStats {
  task: number;
  /** Repeats the materialized inputs plan for it (k); null without them. */
  planned: number | null;
}

/** A task passes at k (k its repeats) when any of its repeats succeeded; null while none is scored. */
export const passAtK = (task: TaskStats): boolean | null => (task.n ? task.successes > 0 : null);
