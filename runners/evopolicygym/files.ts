import type { Shape } from '../common/json';

/** The fields of evopolicygym's run.json that Cellwatch reads. */
export const RUN_JSON: Shape = { config: 'object', agent: 'object', assessment: 'object', terminal_reason: 'string', started_at: 'timestamp' };
