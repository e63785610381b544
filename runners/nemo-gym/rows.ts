// A NeMo Gym row summarised from its text: the unit, the agent, the reward, the token counts and the
// environment's own small fields, without building the conversation around them (formats.md section 5).
import { parseJson } from '../../shared/json';
import { problem, type Problem } from '../../shared/model';
import { fromKey, keyAt, leadingMembers, objectSpans, type Span } from '../common/json-spans';
import type { LineChunk } from '../common/jsonl';
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

/** A materialized input as the count reads it: the unit it plans, and the agent that is to run it. */
export type PlannedUnit = Pick<NemoRow, 'line' | 'task' | 'repeat' | 'agent'>;

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

/** A row's members as a summary reads them: its own, and its response's usage and model. */
interface Members {
  /** The row's member keys, in order. */
  keys(): Iterable<string>;
  has(key: string): boolean;
  value(key: string): unknown;
  /** A key as the field it names (decoded where the text is still bytes). */
  name(key: string): string;
  /** The bytes of a member's JSON. */
  size(key: string): number;
  usage(): unknown;
  model(): unknown;
}

/** Members found as spans of the text, each parsed when it is asked for, and the response's usage and model. */
class SpanMembers implements Members {
  constructor(
    private readonly text: string,
    private readonly spans: Map<string, Span>,
    private readonly usageValue: unknown,
    private readonly modelValue: unknown,
  ) {}
  keys() {
    return this.spans.keys();
  }
  has(key: string) {
    return this.spans.has(key);
  }
  value(key: string) {
    return value(this.text, this.spans.get(key));
  }
  name(key: string) {
    return utf8(key);
  }
  size(key: string) {
    const span = this.spans.get(key);
    return span ? span.end - span.start : 0;
  }
  usage() {
    return this.usageValue;
  }
  model() {
    return this.modelValue;
  }
}

/** Members parsed at once: the members after the response, short altogether, and its usage and model. */
class ParsedMembers implements Members {
  constructor(
    private readonly top: Record<string, unknown>,
    private readonly usageValue: unknown,
    private readonly modelValue: unknown,
  ) {}
  keys() {
    return Object.keys(this.top);
  }
  has(key: string) {
    return Object.hasOwn(this.top, key);
  }
  value(key: string) {
    return Object.hasOwn(this.top, key) ? this.top[key] : undefined;
  }
  name(key: string) {
    return key;
  }
  size() {
    return 0;
  }
  usage() {
    return this.usageValue;
  }
  model() {
    return this.modelValue;
  }
}

/** Every member found by reading the whole row. */
function fullLayout(text: string): Members | null {
  const spans = objectSpans(text);
  if (!spans) return null;
  const span = spans.get('response');
  const response = (span && objectSpans(text, span.start, span.end)) ?? new Map<string, Span>();
  return new SpanMembers(text, spans, value(text, response.get('usage')), value(text, response.get('model')));
}

const RESPONSE = Buffer.from('"response":');
const USAGE = Buffer.from('"usage"');
/** Bytes of a response's head first made text to find its model: eight times more each time its members before `output` go on. */
const HEAD_BYTES = 512;
const isSpaceByte = (c: number | undefined) => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;

/**
 * The same from the row's bytes (bytes[start, end)) without reading the conversation: the response's
 * usage from its tail, its model from its head, the row's members after it; only those are made text.
 * The members before the response (the input, responses_create_params) are not read, nor is the response
 * between its head and its usage. Members after the response that are short altogether are parsed in one
 * go. Null when the row has another shape. It trusts the first `"response":` to be the row's, and no later
 * top-level object to hold a `usage`: summarizeLines checks it against a whole read now and then.
 */
function fastLayout(chunk: Buffer, start: number, end: number): Members | null {
  // The row alone: a search in the chunk would run on through the rows after it.
  const bytes = chunk.subarray(start, end);
  const name = bytes.indexOf(RESPONSE);
  if (name <= 0) return null;
  let open = name + RESPONSE.length;
  while (isSpaceByte(bytes[open])) open++;
  if (bytes[open] !== 0x7b) return null;
  let key = bytes.length;
  let tail: string;
  do {
    key = bytes.lastIndexOf(USAGE, key - 1);
    if (key <= open) return null;
    tail = bytes.toString('latin1', key);
  } while (!keyAt(tail, 0, USAGE.length));
  const found = fromKey(tail, 0);
  if (!found) return null;
  const close = key + found.end;
  let head = '';
  let response: Map<string, Span> | null = null;
  for (let length = HEAD_BYTES; !response && head.length < close - open; length *= 8) {
    head = bytes.toString('latin1', open, Math.min(close, open + length));
    response = leadingMembers(head, { start: 0, end: head.length }, 'output');
  }
  if (!response) return null;
  if (tail.length - found.rest <= SMALL_FIELD_CHARS) {
    try {
      const top = parseJson(utf8(`{${tail.slice(found.rest)}`));
      if (top && typeof top === 'object' && !Array.isArray(top) && !Object.hasOwn(top, 'response')) {
        return new ParsedMembers(top as Record<string, unknown>, value(tail, found.inner.get('usage')), value(head, response.get('model')));
      }
    } catch {
      // read member by member below
    }
  }
  // The members after the response, read as an object of their own: `{` and the tail from them on.
  const rest = `{${tail.slice(found.rest)}`;
  const top = objectSpans(rest);
  if (!top || top.has('response')) return null;
  return new SpanMembers(rest, top, value(tail, found.inner.get('usage')), value(head, response.get('model')));
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

function usageOf(members: Members): { usage: RowUsage | null; model: string | null } {
  const usage = obj(members.usage());
  const model = shared(str(members.model()));
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

/** The unit a row's members name, or why they name none. */
function plannedOf(members: Pick<Members, 'value' | 'has'> | null, line: number): PlannedUnit | string {
  if (!members) return 'not a JSON object; skipped';
  const task = members.value('_ng_task_index');
  if (typeof task !== 'number' || !Number.isInteger(task)) return members.has('_ng_task_index') ? '_ng_task_index is not a whole number; skipped' : 'no _ng_task_index; skipped';
  const repeat = members.value('_ng_rollout_index');
  return { line, task, repeat: typeof repeat === 'number' && Number.isInteger(repeat) ? repeat : null, agent: shared(str(obj(members.value('agent_ref')).name)) };
}

/** One line's row, from its members, or why it is none. */
function rowOf(members: Members | null, line: number, offset: number): NemoRow | string {
  if (!members) return 'not a JSON object; skipped';
  const unit = plannedOf(members, line);
  if (typeof unit === 'string') return unit;
  const fields: NemoRow['fields'] = {};
  const largeFields: NemoRow['largeFields'] = {};
  for (const key of members.keys()) {
    if (CONVERSATION.has(key) || BOOKKEEPING.has(key)) continue;
    const name = members.name(key);
    const size = members.size(key);
    const large = size > SMALL_FIELD_CHARS;
    fields[name] = large ? undefined : members.value(key);
    if (large) largeFields[name] = size;
  }
  return {
    line,
    offset,
    task: unit.task,
    repeat: unit.repeat,
    attempt: num(members.value('_ng_attempt_index')),
    agent: unit.agent,
    reward: members.value('reward'),
    ...usageOf(members),
    failureClass: shared(str(members.value('_ng_failure_class'))),
    terminal: members.value('_ng_failure_terminal') === true,
    fields,
    largeFields,
    observed: members.has('ng_trajectory') || members.has('ng_agent_observations'),
  };
}

/** One row in this many is read both ways: a chunk whose rows the fast way misreads is read whole from there on. */
const CHECK_EVERY = 64;

/** Bytes JavaScript's trim() takes for white space, read as latin1: a line of nothing else is blank. */
const isBlankByte = (c: number) => (c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0xa0;

/**
 * Each complete, not blank line of a chunk (bytes[start, end), its number and first byte); where the last
 * complete line ends and how many lines that is.
 */
function eachRow(bytes: Buffer, firstLine: number, visit: (start: number, end: number, line: number) => void): { consumed: number; lines: number } {
  let start = 0;
  let line = firstLine;
  for (let end = bytes.indexOf(0x0a); end >= 0; start = end + 1, end = bytes.indexOf(0x0a, start), line++) {
    let first = start;
    while (first < end && isBlankByte(bytes[first] as number)) first++;
    if (first < end) visit(start, end, line);
  }
  return { consumed: start, lines: line - firstLine };
}

/**
 * The complete lines of a chunk of a rollouts or failures file, each summarised; a partial last line
 * waits. Rows are read around their conversation (fastLayout), checked now and then against a whole
 * read: a chunk of an environment whose rows have fields before `response`, or a `usage` of their own,
 * is read whole from the first row that shows it.
 */
export function summarizeLines(bytes: Buffer, file: string, firstLine: number, offset: number): LineChunk<NemoRow> {
  const records: NemoRow[] = [];
  const problems: Problem[] = [];
  let fast = true;
  const taken = eachRow(bytes, firstLine, (start, end, line) => {
    const whole = () => rowOf(fullLayout(bytes.toString('latin1', start, end)), line, offset + start);
    const members: Members | null = fast ? fastLayout(bytes, start, end) : null;
    let row: NemoRow | string = members ? rowOf(members, line, offset + start) : whole();
    if (members && (line - firstLine) % CHECK_EVERY === 0) {
      const read = whole();
      if (JSON.stringify(read) !== JSON.stringify(row)) [row, fast] = [read, false];
    }
    if (typeof row === 'string') problems.push(problem(file, row, { line }));
    else records.push(row);
  });
  return { records, problems, ...taken };
}

/** The keys of the unit a row names, as their bytes (each quoted). */
const UNIT_KEYS = ['_ng_task_index', '_ng_rollout_index', 'agent_ref'].map((key) => Buffer.from(`"${key}"`));

/** An object's members, read from its parsed value. */
const membersOf = (object: Record<string, unknown>) => ({ value: (key: string) => (Object.hasOwn(object, key) ? object[key] : undefined), has: (key: string) => Object.hasOwn(object, key) });

/**
 * The row's members from the first of its unit's keys on (each key's last place), parsed as an object of
 * their own: that parses only when they are the row's own members and close it (a key inside a member
 * would leave braces or brackets closing past it). Null when it does not.
 */
function unitMembers(row: Buffer): Record<string, unknown> | null {
  let from = row.length;
  for (const key of UNIT_KEYS) {
    const at = row.lastIndexOf(key);
    if (at >= 0 && at < from) from = at;
  }
  if (from === row.length) return null;
  try {
    const tail: unknown = JSON.parse(`{${row.toString('utf8', from)}`);
    return tail !== null && typeof tail === 'object' && !Array.isArray(tail) ? (tail as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The complete lines of a chunk of a materialized-inputs file, each the unit it plans: read from its
 * unit's members at the row's end where they are (unitMembers), else from a whole parse of the row.
 */
export function plannedLines(bytes: Buffer, file: string, firstLine: number): LineChunk<PlannedUnit> {
  const records: PlannedUnit[] = [];
  const problems: Problem[] = [];
  const taken = eachRow(bytes, firstLine, (start, end, line) => {
    const row = bytes.subarray(start, end);
    let object = unitMembers(row);
    if (!object) {
      try {
        const whole: unknown = parseJson(row.toString('utf8'));
        object = whole !== null && typeof whole === 'object' && !Array.isArray(whole) ? (whole as Record<string, unknown>) : null;
      } catch {
        object = null;
      }
    }
    const unit = plannedOf(object && membersOf(object), line);
    if (typeof unit === 'string') problems.push(problem(file, unit, { line }));
    else records.push(unit);
  });
  return { records, problems, ...taken };
}
