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
 * The elements of the JSON array in bytes[from, to), each one's span, in order; null when the bytes are not
 * one whole array. As with members, an element is not checked beyond its bounds: parse its span to read it
 * (a list of 200,000 summaries is parsed one element at a time, never whole).
 */
export function elementSpans(bytes: Buffer, from: number, to: number): ByteSpan[] | null {
  const spans: ByteSpan[] = [];
  let at = skipSpace(bytes, from, to);
  if (bytes[at] !== 0x5b) return null;
  at = skipSpace(bytes, at + 1, to);
  if (bytes[at] === 0x5d) return skipSpace(bytes, at + 1, to) === to ? spans : null;
  for (;;) {
    const end = valueEnd(bytes, at, to);
    if (end < 0) return null;
    spans.push({ start: at, end });
    at = skipSpace(bytes, end, to);
    if (bytes[at] === 0x5d) return skipSpace(bytes, at + 1, to) === to ? spans : null;
    if (bytes[at] !== 0x2c) return null;
    at = skipSpace(bytes, at + 1, to);
  }
}
