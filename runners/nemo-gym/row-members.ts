// A NeMo Gym row's members as a summary reads them, from its bytes: the row's own, and its response's
// usage and model, found without reading the conversation where the row's shape allows.
import { parseJson } from '../../shared/json';
import { isObject, type JsonObject } from '../common/json';
import { fromKey, keyAt, leadingMembers, objectSpans, type Span } from '../common/json-spans';

/** An environment field longer than this (a SWE patch, a transcript) is kept as its size, read when the row is opened. */
export const SMALL_FIELD_CHARS = 400;

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

/** A row's members other than those skipped, in the row's order: small ones as they are, a long one by its size. */
export interface Fields {
  /** Each member by its name; one too long to keep is present as undefined, its size in `large`. */
  small: Record<string, unknown>;
  /** Members longer than SMALL_FIELD_CHARS, by the bytes of their JSON. */
  large: Record<string, number>;
}

/** A row's members as a summary reads them: its own, and its response's usage and model. */
export interface Members {
  has(key: string): boolean;
  value(key: string): unknown;
  /** The members not in `skip` (keys as the row gives them). */
  fields(skip: ReadonlySet<string>): Fields;
  usage(): unknown;
  model(): unknown;
}

/** Members found as spans of the text, each parsed when it is asked for, and the response's usage and model. */
export class SpanMembers implements Members {
  constructor(
    private readonly text: string,
    private readonly spans: Map<string, Span>,
    private readonly usageValue: unknown,
    private readonly modelValue: unknown,
  ) {}
  has(key: string) {
    return this.spans.has(key);
  }
  value(key: string) {
    return value(this.text, this.spans.get(key));
  }
  fields(skip: ReadonlySet<string>): Fields {
    const found: Fields = { small: {}, large: {} };
    for (const [key, span] of this.spans) {
      if (skip.has(key)) continue;
      // Keys are still bytes (latin1) here: the field's name is decoded.
      const name = utf8(key);
      const size = span.end - span.start;
      found.small[name] = size > SMALL_FIELD_CHARS ? undefined : value(this.text, span);
      if (size > SMALL_FIELD_CHARS) found.large[name] = size;
    }
    return found;
  }
  usage() {
    return this.usageValue;
  }
  model() {
    return this.modelValue;
  }
}

/** Members parsed at once: the members after the response, short altogether (so each is small), and its usage and model. */
export class ParsedMembers implements Members {
  constructor(
    private readonly top: JsonObject,
    private readonly usageValue: unknown,
    private readonly modelValue: unknown,
  ) {}
  has(key: string) {
    return Object.hasOwn(this.top, key);
  }
  value(key: string) {
    return Object.hasOwn(this.top, key) ? this.top[key] : undefined;
  }
  fields(skip: ReadonlySet<string>): Fields {
    const small: Fields['small'] = {};
    for (const key in this.top) if (!skip.has(key)) small[key] = this.top[key];
    return { small, large: {} };
  }
  usage() {
    return this.usageValue;
  }
  model() {
    return this.modelValue;
  }
}

/** Every member found by reading the whole row. */
export function fullLayout(text: string): Members | null {
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
export function fastLayout(chunk: Buffer, start: number, end: number): Members | null {
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
  const usage = value(tail, found.inner.get('usage'));
  const model = value(head, response.get('model'));
  // The members after the response, read as an object of their own: `{` and the tail from them on;
  // short altogether, parsed at once.
  const rest = `{${tail.slice(found.rest)}`;
  if (rest.length - 1 <= SMALL_FIELD_CHARS) {
    try {
      const top = parseJson(utf8(rest));
      if (isObject(top) && !Object.hasOwn(top, 'response')) return new ParsedMembers(top, usage, model);
    } catch {
      // read member by member below
    }
  }
  const top = objectSpans(rest);
  if (!top || top.has('response')) return null;
  return new SpanMembers(rest, top, usage, model);
}
