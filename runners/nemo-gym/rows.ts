// A NeMo Gym row summarised from its text: the unit, the agent, the reward, the token counts and the
// environment's own small fields, without building the conversation around them (formats.md section 5).
import { parseJson } from '../../shared/json';
import { problem, type Problem } from '../../shared/model';
import { objectSpans, type Span } from '../common/json-spans';
import { num, obj, str } from '../common/values';

/** Members every row has that are the conversation itself: never parsed for a summary. */
const CONVERSATION = new Set(['responses_create_params', 'response', 'ng_trajectory', 'ng_agent_observations']);
/** The row's own bookkeeping, read into named fields rather than kept as the environment's. */
const BOOKKEEPING = new Set(['_ng_task_index', '_ng_rollout_index', '_ng_attempt_index', '_ng_failure_class', '_ng_failure_terminal', '_ng_failure_message', 'agent_ref', 'reward']);
/** An environment field longer than this (a SWE patch, a transcript) is kept as its size, read when the row is opened. */
const SMALL_FIELD_CHARS = 400;

export interface RowUsage {
  input: number | null;
  cached: number | null;
  output: number | null;
  reasoning: number | null;
}

/** A field too long to keep in a summary: how long it is. */
export interface LargeField {
  chars: number;
}

export interface NemoRow {
  line: number;
  /** The byte its line starts at, so the whole row can be read again when opened. */
  offset: number;
  task: number | null;
  repeat: number | null;
  attempt: number | null;
  agent: string | null;
  /** As the row gives it: a number is scored, anything else is shown as it is. */
  reward: unknown;
  usage: RowUsage | null;
  model: string | null;
  failureClass: string | null;
  terminal: boolean;
  /** The environment's own fields (resolved, patch_exists, hit, ...), small ones as they are. */
  fields: Record<string, unknown | LargeField>;
  /** The row carries ng_trajectory or ng_agent_observations. */
  observed: boolean;
}

export const unitOf = (row: Pick<NemoRow, 'task' | 'repeat'>) => `${row.task}#${row.repeat ?? 0}`;

function value(text: string, span: Span | undefined): unknown {
  if (!span) return undefined;
  try {
    return parseJson(text.slice(span.start, span.end));
  } catch {
    return undefined;
  }
}

function usageOf(text: string, response: Span | undefined): { usage: RowUsage | null; model: string | null } {
  if (!response) return { usage: null, model: null };
  const spans = objectSpans(text, response.start, response.end);
  if (!spans) return { usage: null, model: null };
  const usage = obj(value(text, spans.get('usage')));
  const model = str(value(text, spans.get('model')));
  if (!Object.keys(usage).length) return { usage: null, model };
  return {
    model,
    usage: {
      input: num(usage.input_tokens),
      cached: num(obj(usage.input_tokens_details).cached_tokens),
      output: num(usage.output_tokens),
      reasoning: num(obj(usage.output_tokens_details).reasoning_tokens),
    },
  };
}

/** One line's row, or why it is none. */
export function summarizeRow(text: string, line: number, offset: number): NemoRow | string {
  const spans = objectSpans(text);
  if (!spans) return 'not a JSON object; skipped';
  const task = value(text, spans.get('_ng_task_index'));
  if (typeof task !== 'number' || !Number.isInteger(task)) return spans.has('_ng_task_index') ? '_ng_task_index is not a whole number; skipped' : 'no _ng_task_index; skipped';
  const repeat = value(text, spans.get('_ng_rollout_index'));
  const fields: NemoRow['fields'] = {};
  for (const [key, span] of spans) {
    if (CONVERSATION.has(key) || BOOKKEEPING.has(key)) continue;
    fields[key] = span.end - span.start > SMALL_FIELD_CHARS ? { chars: span.end - span.start } : value(text, span);
  }
  const failure = str(value(text, spans.get('_ng_failure_class')));
  return {
    line,
    offset,
    task,
    repeat: typeof repeat === 'number' && Number.isInteger(repeat) ? repeat : null,
    attempt: num(value(text, spans.get('_ng_attempt_index'))),
    agent: str(obj(value(text, spans.get('agent_ref'))).name),
    reward: value(text, spans.get('reward')),
    ...usageOf(text, spans.get('response')),
    failureClass: failure,
    terminal: value(text, spans.get('_ng_failure_terminal')) === true,
    fields,
    observed: spans.has('ng_trajectory') || spans.has('ng_agent_observations'),
  };
}

export interface RowChunk {
  records: NemoRow[];
  problems: Problem[];
  consumed: number;
  lines: number;
}

/** The complete lines of a chunk of a rollouts, failures or inputs file, each summarised; a partial last line waits. */
export function summarizeLines(text: string, file: string, firstLine: number, offset: number): RowChunk {
  const records: NemoRow[] = [];
  const problems: Problem[] = [];
  let start = 0;
  let line = firstLine;
  let consumed = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    if (end < 0) break;
    const raw = text.slice(start, end);
    const bytes = Buffer.byteLength(raw) + 1;
    if (raw.trim() !== '') {
      const row = summarizeRow(raw, line, offset + consumed);
      if (typeof row === 'string') problems.push(problem(file, row, { line }));
      else records.push(row);
    }
    consumed += bytes;
    start = end + 1;
    line++;
  }
  return { records, problems, consumed, lines: line - firstLine };
}
