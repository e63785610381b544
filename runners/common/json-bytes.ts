// Where a JSON value ends, found on its bytes: a NeMo Gym response is megabytes of conversation, nearly
// all of it inside strings, which are skipped with the buffer's own (native) search, not byte by byte.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The index of the quote that closes the string opening at `open`, or -1 when the bytes end first. */
function stringEnd(bytes: Buffer, open: number, end: number): number {
  for (let from = open + 1; ; ) {
    const quote = bytes.indexOf(QUOTE, from);
    if (quote < 0 || quote >= end) return -1;
    let k = quote - 1;
    while (bytes[k] === BACKSLASH) k--;
    // An even run of backslashes before it escapes nothing.
    if ((quote - 1 - k) % 2 === 0) return quote;
    from = quote + 1;
  }
}

/** The index just past the object or array opening at `at`, or -1 when it does not close before `end`. */
export function containerEnd(bytes: Buffer, at: number, end: number): number {
  let depth = 0;
  for (let i = at; i < end; i++) {
    const c = bytes[i] as number;
    if (c === QUOTE) {
      i = stringEnd(bytes, i, end);
      if (i < 0) return -1;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i + 1;
  }
  return -1;
}

const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function skipSpace(bytes: Buffer, at: number, end: number): number {
  while (at < end && isSpace(bytes[at])) at++;
  return at;
}

/** The index just past the JSON value starting at `at`, or -1 when it does not end before `end`. */
function valueEnd(bytes: Buffer, at: number, end: number): number {
  const first = bytes[at];
  if (first === QUOTE) {
    const close = stringEnd(bytes, at, end);
    return close < 0 ? -1 : close + 1;
  }
  if (first === 0x7b || first === 0x5b) return containerEnd(bytes, at, end);
  let i = at;
  while (i < end) {
    const c = bytes[i];
    if (c === 0x2c || c === 0x7d || c === 0x5d || isSpace(c)) break;
    i++;
  }
  return i > at ? i : -1;
}

/** A value's place: bytes[start, end) is its JSON. */
export interface ByteSpan {
  start: number;
  end: number;
}

/**
 * The members of the JSON object in bytes[from, to), each key (decoded) with its value's span, in order;
 * null when the bytes are not one whole object. Values are not checked beyond their bounds: parse a span
 * to read it. A repeated key keeps its first place and its last value, as JSON.parse does.
 */
export function memberSpans(bytes: Buffer, from: number, to: number): Map<string, ByteSpan> | null {
  const spans = new Map<string, ByteSpan>();
  let at = skipSpace(bytes, from, to);
  if (bytes[at] !== 0x7b) return null;
  at = skipSpace(bytes, at + 1, to);
  if (bytes[at] === 0x7d) return skipSpace(bytes, at + 1, to) === to ? spans : null;
  for (;;) {
    if (bytes[at] !== QUOTE) return null;
    const close = stringEnd(bytes, at, to);
    if (close < 0) return null;
    let key = bytes.toString('utf8', at + 1, close);
    if (key.includes('\\')) {
      try {
        key = JSON.parse(`"${key}"`) as string;
      } catch {
        return null;
      }
    }
    at = skipSpace(bytes, close + 1, to);
    if (bytes[at] !== 0x3a) return null;
    at = skipSpace(bytes, at + 1, to);
    const end = valueEnd(bytes, at, to);
    if (end < 0) return null;
    spans.set(key, { start: at, end });
    at = skipSpace(bytes, end, to);
    if (bytes[at] === 0x7d) return skipSpace(bytes, at + 1, to) === to ? spans : null;
    if (bytes[at] !== 0x2c) return null;
    at = skipSpace(bytes, at + 1, to);
  }
}

/**
 * The elements of one JSON array whose bytes come in chunks (a member as it inflates): `push` gives the
 * elements a chunk completes, each as its bytes; `end` says whether the bytes were one whole array. Only
 * the element being completed is held, never the array.
 */
export class ElementStream {
  private carry = Buffer.alloc(0);
  private expect: 'open' | 'first' | 'element' | 'comma' | 'closed' | 'broken' = 'open';

  push(chunk: Buffer): Buffer[] {
    const bytes = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    const elements: Buffer[] = [];
    let at = skipSpace(bytes, 0, bytes.length);
    while (at < bytes.length && this.expect !== 'broken') {
      const c = bytes[at] as number;
      if (this.expect === 'open' || this.expect === 'closed') {
        this.expect = this.expect === 'open' && c === 0x5b ? 'first' : 'broken';
        at++;
      } else if (this.expect === 'comma' || (this.expect === 'first' && c === 0x5d)) {
        this.expect = c === 0x2c ? 'element' : c === 0x5d ? 'closed' : 'broken';
        at++;
      } else {
        const end = valueEnd(bytes, at, bytes.length);
        // A number or literal that reaches the chunk's end may go on in the next one.
        if (end < 0 || (end === bytes.length && c !== QUOTE && c !== 0x7b && c !== 0x5b)) break;
        elements.push(bytes.subarray(at, end));
        this.expect = 'comma';
        at = end;
      }
      at = skipSpace(bytes, at, bytes.length);
    }
    this.carry = this.expect === 'broken' ? Buffer.alloc(0) : Buffer.from(bytes.subarray(at));
    return elements;
  }

  /** Whether the bytes pushed were one whole array and nothing after it. */
  end(): boolean {
    return this.expect === 'closed' && this.carry.length === 0;
  }
}
