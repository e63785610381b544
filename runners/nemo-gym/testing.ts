// What a NeMo Gym row says, from JSON.parse of the whole line: the summary the row reader must give.
export type Row = Record<string, unknown>;

const NOT_FIELDS = new Set(['responses_create_params', 'response', 'ng_trajectory', 'ng_agent_observations', '_ng_task_index', '_ng_rollout_index', '_ng_attempt_index', '_ng_failure_class', '_ng_failure_terminal', '_ng_failure_message', 'agent_ref', 'reward']);

const record = (value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Row) : {});
const numberOr = (value: unknown) => (typeof value === 'number' ? value : null);
const stringOr = (value: unknown) => (typeof value === 'string' ? value : null);

/** `size`: the bytes of a value as the row writes it (compact JSON unless it is spaced otherwise). */
export function expected(row: Row, size = (value: unknown) => Buffer.byteLength(JSON.stringify(value))) {
  const usage = record(record(row.response).usage);
  const fields: Row = {};
  const largeFields: Record<string, number> = {};
  for (const [key, value] of Object.entries(row)) {
    if (NOT_FIELDS.has(key)) continue;
    const bytes = size(value);
    fields[key] = bytes > 400 ? undefined : value;
    if (bytes > 400) largeFields[key] = bytes;
  }
  return {
    task: row._ng_task_index,
    repeat: Number.isInteger(row._ng_rollout_index) ? row._ng_rollout_index : null,
    attempt: numberOr(row._ng_attempt_index),
    agent: stringOr(record(row.agent_ref).name),
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
