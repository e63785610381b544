// Where the top-level values of a JSON object sit in its text, found without building the object: a NeMo
// Gym row is a whole conversation (megabytes) around a few numbers, and only those are parsed.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The index of the quote that closes the string opening at `open`, or -1 when the text ends first. */
export function stringEnd(text: string, open: number): number {
  for (let from = open + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let k = quote - 1;
    while (text.charCodeAt(k) === BACKSLASH) k--;
    // An even run of backslashes before it escapes nothing.
    if ((quote - 1 - k) % 2 === 0) return quote;
    from = quote + 1;
  }
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function skipSpace(text: string, at: number, end: number): number {
  while (at < end && isSpace(text.charCodeAt(at))) at++;
  return at;
}

/** The index just past the JSON value starting at `at`, or -1 when it does not end before `end`. */
export function valueEnd(text: string, at: number, end: number): number {
  const first = text.charCodeAt(at);
  if (first === QUOTE) {
    const close = stringEnd(text, at);
    return close < 0 || close >= end ? -1 : close + 1;
  }
  if (first === 0x7b || first === 0x5b) {
    let depth = 0;
    for (let i = at; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        i = stringEnd(text, i);
        if (i < 0 || i >= end) return -1;
      } else if (c === 0x7b || c === 0x5b) depth++;
      else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i + 1;
    }
    return -1;
  }
  let i = at;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 0x2c || c === 0x7d || c === 0x5d || isSpace(c)) break;
    i++;
  }
  return i > at ? i : -1;
}

/** A top-level value's place: text.slice(start, end) is its JSON. */
export interface Span {
  start: number;
  end: number;
}

/**
 * The members of an object from `at` (its first key's quote, or its closing brace) on, to its closing
 * brace, and where that brace is. Null when they are not well formed.
 */
function readMembers(text: string, at: number, to: number): { spans: Map<string, Span>; at: number } | null {
  const spans = new Map<string, Span>();
  at = skipSpace(text, at, to);
  if (text.charCodeAt(at) === 0x7d) return { spans, at };
  for (;;) {
    if (text.charCodeAt(at) !== QUOTE) return null;
    const close = stringEnd(text, at);
    if (close < 0 || close >= to) return null;
    const raw = text.slice(at + 1, close);
    let key = raw;
    if (raw.includes('\\')) {
      try {
        key = JSON.parse(`"${raw}"`) as string;
      } catch {
        return null;
      }
    }
    at = skipSpace(text, close + 1, to);
    if (text.charCodeAt(at) !== 0x3a) return null;
    at = skipSpace(text, at + 1, to);
    const end = valueEnd(text, at, to);
    if (end < 0) return null;
    spans.set(key, { start: at, end });
    at = skipSpace(text, end, to);
    const c = text.charCodeAt(at);
    if (c === 0x7d) return { spans, at };
    if (c !== 0x2c) return null;
    at = skipSpace(text, at + 1, to);
  }
}

/**
 * The top-level members of the JSON object in text[from, to), each key with its value's span, in order;
 * null when the text is not one whole object. Values are not checked beyond their bounds: parse a span
 * to read it.
 */
export function objectSpans(text: string, from = 0, to = text.length): Map<string, Span> | null {
  const at = skipSpace(text, from, to);
  if (text.charCodeAt(at) !== 0x7b) return null;
  const members = readMembers(text, at + 1, to);
  return members && skipSpace(text, members.at + 1, to) === to ? members.spans : null;
}
