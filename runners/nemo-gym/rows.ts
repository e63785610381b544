// A NeMo Gym row summarised from its text: the unit, the agent, the reward, the token counts and the
// environment's own small fields, without building the conversation around them (formats.md section 5).
import { parseJson } from '../../shared/json';
import { problem, type Problem } from '../../shared/model';
import { leadingMembers, objectSpans, spansAround, type Span } from '../common/json-spans';
import { eachLine, type LineChunk } from '../common/jsonl';
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
  /**
   * The environment's own fields (resolved, patch_exists, hit, ...) in the row's order: small ones as they
   * are, one too long to keep here present as undefined, its size in `largeFields`.
   */
  fields: Record<string, unknown>;
  /** The environment's fields too long to keep in a summary, by the bytes of their JSON. */
  largeFields: Record<string, number>;
  /** The row carries ng_trajectory or ng_agent_observations. */
  observed: boolean;
}

export const unitOf = (row: Pick<NemoRow, 'task' | 'repeat'>) => `${row.task}#${row.repeat ?? 0}`;

/** Text read as bytes (latin1) made UTF-8 again: only what a summary keeps is decoded. */
const utf8 = (bytes: string) => (/[\x80-\xff]/.test(bytes) ? Buffer.from(bytes, 'latin1').toString('utf8') : bytes);

function value(text: string, span: Span | undefined): unknown {
  if (!span) return undefined;
  try {
    return parseJson(utf8(text.slice(span.start, span.end)));
  } catch {
    return undefined;
  }
}

/** Where a row's members are: its own, and those of its response that a summary reads (model, usage). */
interface Layout {
  spans: Map<string, Span>;
  response: Map<string, Span>;
}

/** Every member found by reading the whole row. */
function fullLayout(text: string): Layout | null {
  const spans = objectSpans(text);
  if (!spans) return null;
  const response = spans.get('response');
  return { spans, response: (response && objectSpans(text, response.start, response.end)) ?? new Map() };
}

/**
 * The same without reading the conversation: the response's usage from its tail, its model from its head,
 * the row's members after it; the members before it (the input, responses_create_params) are not read.
 * Null when the row has another shape.
 */
function fastLayout(text: string): Layout | null {
  const around = spansAround(text, 'response', 'usage');
  if (!around) return null;
  const response = leadingMembers(text, around.top.get('response') as Span, 'output');
  for (const [key, span] of around.inner) response.set(key, span);
  return { spans: around.top, response };
}

/**
 * One copy of each agent, model and failure class name, shared by every row that names it: 100,000 rows
 * of one agent otherwise hold 100,000 copies of its name. A few thousand names at most are kept.
 */
const names = new Map<string, string>();
function shared(name: string | null): string | null {
  if (name === null) return null;
  const known = names.get(name);
  if (known !== undefined) return known;
  if (names.size < 4096) names.set(name, name);
  return name;
}

function usageOf(text: string, response: Map<string, Span>): { usage: RowUsage | null; model: string | null } {
  const usage = obj(value(text, response.get('usage')));
  const model = shared(str(value(text, response.get('model'))));
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

/**
 * One line's row (its bytes, as latin1 text), or why it is none; `fast` reads around the conversation
 * where the row's shape allows.
 */
export function summarizeRow(text: string, line: number, offset: number, fast = false): NemoRow | string {
  const layout = (fast ? fastLayout(text) : null) ?? fullLayout(text);
  if (!layout) return 'not a JSON object; skipped';
  const { spans } = layout;
  const task = value(text, spans.get('_ng_task_index'));
  if (typeof task !== 'number' || !Number.isInteger(task)) return spans.has('_ng_task_index') ? '_ng_task_index is not a whole number; skipped' : 'no _ng_task_index; skipped';
  const repeat = value(text, spans.get('_ng_rollout_index'));
  const fields: NemoRow['fields'] = {};
  const largeFields: NemoRow['largeFields'] = {};
  for (const [key, span] of spans) {
    if (CONVERSATION.has(key) || BOOKKEEPING.has(key)) continue;
    const name = utf8(key);
    const large = span.end - span.start > SMALL_FIELD_CHARS;
    fields[name] = large ? undefined : value(text, span);
    if (large) largeFields[name] = span.end - span.start;
  }
  const failure = shared(str(value(text, spans.get('_ng_failure_class'))));
  return {
    line,
    offset,
    task,
    repeat: typeof repeat === 'number' && Number.isInteger(repeat) ? repeat : null,
    attempt: num(value(text, spans.get('_ng_attempt_index'))),
    agent: shared(str(obj(value(text, spans.get('agent_ref'))).name)),
    reward: value(text, spans.get('reward')),
    ...usageOf(text, layout.response),
    failureClass: failure,
    terminal: value(text, spans.get('_ng_failure_terminal')) === true,
    fields,
    largeFields,
    observed: spans.has('ng_trajectory') || spans.has('ng_agent_observations'),
  };
}

/** One row in this many is read both ways: a chunk whose rows the fast way misreads is read whole from there on. */
const CHECK_EVERY = 64;

/**
 * The complete lines of a chunk of a rollouts, failures or inputs file (bytes, as latin1 text), each summarised; a partial last
 * line waits. Rows are read around their conversation (fastLayout), checked now and then against a
 * whole read: a chunk of an environment whose rows have fields before `response`, or a `usage` of their
 * own, is read whole from the first row that shows it.
 */
export function summarizeLines(text: string, file: string, firstLine: number, offset: number): LineChunk<NemoRow> {
  const records: NemoRow[] = [];
  const problems: Problem[] = [];
  let fast = true;
  const taken = eachLine(text, firstLine, (raw, line, at) => {
    if (raw.trim() === '') return;
    let row = summarizeRow(raw, line, offset + at, fast);
    if (fast && (line - firstLine) % CHECK_EVERY === 0) {
      const whole = summarizeRow(raw, line, offset + at);
      if (JSON.stringify(whole) !== JSON.stringify(row)) [row, fast] = [whole, false];
    }
    if (typeof row === 'string') problems.push(problem(file, row, { line }));
    else records.push(row);
  }, (raw) => raw.length);
  return { records, problems, ...taken };
}
