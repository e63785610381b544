import type { Shape } from '../common/json';

/** The fields of the coding-agent runner's JSON files that Cellwatch reads. */
export const RUN_JSON: Shape = { run: 'string', cell: 'object', protocol: 'object', 'protocol.episodes': 'array', started_at: 'timestamp' };
export const SUMMARY_JSON: Shape = { run: 'string', planned: 'array', episodes: 'object', aggregate: 'object', finished: 'boolean', vram_peak_mib: 'number' };
