// What a NeMo Gym row says, from JSON.parse of the whole line: the summary the row reader must give; and
// rows written as a file holds them, read back as the count is handed them.
import type { NemoRow, RowBlock } from './row-block';
import { summarizeLines } from './rows';
import { agentName } from './agent-name';

export type Row = Record<string, unknown>;

const NOT_FIELDS = new Set(['responses_create_params', 'response', 'ng_trajectory', 'ng_agent_observations', '_ng_task_index', '_ng_rollout_index', '_ng_attempt_index', '_ng_failure_class', '_ng_failure_terminal', '_ng_failure_message', 'agent_ref', 'reward']);

const record = (value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Row) : {});
const numberOr = (value: unknown) => (typeof value === 'number' ? value : null);
const stringOr = (value: unknown) => (typeof value === 'string' ? value : null);

/** `size`: the bytes of a member's value as the row writes it (compact JSON unless it is spaced or spelled otherwise). */
export function expected(row: Row, size = (value: unknown, _key: string) => Buffer.byteLength(JSON.stringify(value))) {
  const usage = record(record(row.response).usage);
  const fields: Row = {};
  const largeFields: Record<string, number> = {};
  for (const [key, value] of Object.entries(row)) {
    if (NOT_FIELDS.has(key)) continue;
    const bytes = size(value, key);
    fields[key] = bytes > 400 ? undefined : value;
    if (bytes > 400) largeFields[key] = bytes;
  }
  return {
    task: row._ng_task_index,
    repeat: Number.isInteger(row._ng_rollout_index) ? row._ng_rollout_index : null,
    attempt: numberOr(row._ng_attempt_index),
    agent: agentName(row.agent_ref),
    reward: row.reward,
    model: stringOr(record(row.response).model),
    usage: Object.keys(usage).length
      ? { input: numberOr(usage.input_tokens), cached: numberOr(record(usage.input_tokens_details).cached_tokens), output: numberOr(usage.output_tokens), reasoning: numberOr(record(usage.output_tokens_details).reasoning_tokens) }
      : null,
    failureClass: stringOr(row._ng_failure_class),
    terminal: row._ng_failure_terminal === true,
    fields,
    largeFields,
    observed: 'ng_trajectory' in row || 'ng_agent_observations' in row,
  };
}

/** Every row of these blocks (a chunk's records, a file's), whole. */
export const rowsIn = (blocks: readonly RowBlock[]): NemoRow[] => blocks.flatMap((block) => Array.from({ length: block.length }, (_, i) => block.row(i)));

/** A row as a rollouts or failures file writes what `row` says: absent members left out, its fields last. */
function rowJson(row: Omit<NemoRow, 'offset' | 'largeFields' | 'observed'>): Row {
  const { usage } = row;
  const response = {
    ...(row.model === null ? {} : { model: row.model }),
    ...(usage ? { usage: { input_tokens: usage.input, input_tokens_details: { cached_tokens: usage.cached }, output_tokens: usage.output, output_tokens_details: { reasoning_tokens: usage.reasoning } } } : {}),
  };
  return {
    response,
    _ng_task_index: row.task,
    ...(row.repeat === null ? {} : { _ng_rollout_index: row.repeat }),
    ...(row.attempt === null ? {} : { _ng_attempt_index: row.attempt }),
    ...(row.agent === null ? {} : { agent_ref: { name: row.agent } }),
    ...(row.reward === undefined ? {} : { reward: row.reward }),
    ...(row.failureClass === null ? {} : { _ng_failure_class: row.failureClass }),
    _ng_failure_terminal: row.terminal,
    ...row.fields,
  };
}

/**
 * Rows (in line order, each at its `line`) as a file holds them, read back as one block by the reader: what
 * the count is handed. Lines between them are blank.
 */
export function blockOf(rows: Omit<NemoRow, 'offset' | 'largeFields' | 'observed'>[]): RowBlock[] {
  let text = '';
  let line = rows[0]?.line ?? 1;
  for (const row of rows) {
    text += `${'\n'.repeat(row.line - line)}${JSON.stringify(rowJson(row))}\n`;
    line = row.line + 1;
  }
  return summarizeLines(Buffer.from(text), 'c.jsonl', rows[0]?.line ?? 1, 0).records;
}
