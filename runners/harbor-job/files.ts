import type { Shape } from '../common/json';

/** The fields of a Harbor job's JSON files that Cellwatch reads: the job's config and result, each trial's result. */
export const CONFIG_JSON: Shape = { job_name: 'string' };
export const JOB_RESULT_JSON: Shape = { stats: 'object', n_total_trials: 'number', started_at: 'timestamp', finished_at: 'timestamp' };
export const TRIAL_RESULT_JSON: Shape = {
  task_name: 'string', source: 'string', config: 'object', verifier_result: 'object', exception_info: 'object', agent_info: 'object', agent_result: 'object',
  started_at: 'timestamp', finished_at: 'timestamp',
};
