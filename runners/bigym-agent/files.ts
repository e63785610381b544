import type { Shape } from '../common/json';

/** The fields of the bigym-agent runner's JSON files that Cellwatch reads. */
export const RUN_JSON: Shape = {
  budget_steps: 'number', steps_used: 'number', status: 'string', tokens: 'object', cost: 'object',
  harness: 'string', model: 'string', interface: 'string', effort: 'string', started_at: 'timestamp',
};
export const EVAL_SUMMARY_JSON: Shape = { episodes: 'array', rejected: 'array', spot_check: 'object', success_rate: 'number', n_episodes: 'number' };
