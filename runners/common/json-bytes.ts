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

/**
 * Whether bytes[from, to) hold one JSON object by its brackets and strings, white space around it: what
 * tells a malformed line from a row, its values not checked.
 */
export function isWholeObject(bytes: Buffer, from: number, to: number): boolean {
  const at = skipSpace(bytes, from, to);
  if (bytes[at] !== 0x7b) return false;
  const end = containerEnd(bytes, at, to);
  return end >= 0 && skipSpace(bytes, end, to) === to;
}

/** What `scalarAt` returns where the bytes are not a value it reads. */
export const NOT_SCALAR = Symbol('not a scalar');

/** Digits of a whole number `scalarAt` reads: fewer than 16 are an exact double. */
const MOST_DIGITS = 15;
/** Bytes of a string `scalarAt` reads: a longer one is left to JSON.parse, faster over its length. */
const MOST_STRING_BYTES = 64;

/**
 * The JSON in bytes[start, end) where it is a whole number of at most 15 digits, true, false, null, or a short
 * string with no escape, as JSON.parse gives it; NOT_SCALAR for anything else (parse it). Most of a row's
 * members a summary reads are such, where each cost a Buffer.toString and a JSON.parse of its own.
 */
export function scalarAt(bytes: Buffer, start: number, end: number): unknown {
  const first = bytes[start];
  if (first === QUOTE) {
    if (end - start > MOST_STRING_BYTES + 2 || end - start < 2 || bytes[end - 1] !== QUOTE) return NOT_SCALAR;
    for (let i = start + 1; i < end - 1; i++) {
      const c = bytes[i] as number;
      if (c < 0x20 || c === QUOTE || c === BACKSLASH) return NOT_SCALAR;
    }
    return bytes.toString('utf8', start + 1, end - 1);
  }
  const negative = first === 0x2d;
  const from = negative ? start + 1 : start;
  const digits = end - from;
  if (digits >= 1 && digits <= MOST_DIGITS && (bytes[from] !== 0x30 || digits === 1)) {
    let value = 0;
    for (let i = from; i < end; i++) {
      const d = (bytes[i] as number) - 0x30;
      if (d < 0 || d > 9) return literalAt(bytes, start, end);
      value = value * 10 + d;
    }
    return negative ? -value : value;
  }
  return literalAt(bytes, start, end);
}

const LITERALS: [Buffer, unknown][] = [
  [Buffer.from('true'), true],
  [Buffer.from('false'), false],
  [Buffer.from('null'), null],
];

function literalAt(bytes: Buffer, start: number, end: number): unknown {
  for (const [text, value] of LITERALS) {
    if (end - start !== text.length) continue;
    let same = true;
    for (let i = 0; i < text.length && same; i++) same = bytes[start + i] === text[i];
    if (same) return value;
  }
  return NOT_SCALAR;
}

/** A value's place: bytes[start, end) is its JSON. */
export interface ByteSpan {
  start: number;
  end: number;
}

/** Keys met before, by a hash of their bytes: a row's keys are the last row's, decoded once, not once a row. */
const keys = new Map<number, { bytes: Buffer; text: string }>();
const MOST_KEYS = 4096;
const LONGEST_KEY = 48;

/** The text of the key in bytes[start, end) (as written: escapes are the caller's). */
function keyAt(bytes: Buffer, start: number, end: number): string {
  const length = end - start;
  if (length > LONGEST_KEY) return bytes.toString('utf8', start, end);
  let hash = length;
  for (let i = start; i < end; i++) hash = (Math.imul(hash, 31) + (bytes[i] as number)) | 0;
  const known = keys.get(hash);
  if (known && known.bytes.length === length) {
    let same = true;
    for (let i = 0; i < length && same; i++) same = known.bytes[i] === bytes[start + i];
    if (same) return known.text;
  }
  const text = bytes.toString('utf8', start, end);
  if (keys.size < MOST_KEYS) keys.set(hash, { bytes: Buffer.from(bytes.subarray(start, end)), text });
  return text;
}

/** Some keys of an object, and the lengths of their bytes: a key of another length, unescaped, is none of them. */
export interface KeySet {
  keys: ReadonlySet<string>;
  lengths: ReadonlySet<number>;
}

export const keySet = (keys: string[]): KeySet => ({ keys: new Set(keys), lengths: new Set(keys.map((key) => Buffer.byteLength(key))) });

/** Members an object may have before MemberSpans finds its keys by a Map. */
const INDEXED = 64;

/**
 * An object's members as spans, in the object's order: written by a scan into arrays kept from one object to
 * the next (a collection's 100,000 rows would otherwise make a Map and a dozen span objects each).
 */
export class MemberSpans {
  private keys: string[] = [];
  private starts: number[] = [];
  private ends: number[] = [];
  /** Each key's place once there are more than INDEXED: looked for one by one, a row of 50,000 members took 6 s. */
  private places: Map<string, number> | null = null;
  size = 0;

  clear(): void {
    this.size = 0;
    this.places = null;
  }

  /** A repeated key keeps its first place and takes its last value, as JSON.parse has it. */
  set(key: string, start: number, end: number): void {
    let at = this.indexOf(key);
    if (at < 0) {
      at = this.size++;
      this.keys[at] = key;
      if (this.places) this.places.set(key, at);
      else if (this.size > INDEXED) this.places = new Map(this.keys.slice(0, this.size).map((k, i) => [k, i]));
    }
    this.starts[at] = start;
    this.ends[at] = end;
  }

  indexOf(key: string): number {
    if (this.places) return this.places.get(key) ?? -1;
    for (let i = 0; i < this.size; i++) if (this.keys[i] === key) return i;
    return -1;
  }

  key(i: number): string {
    return this.keys[i] as string;
  }

  start(i: number): number {
    return this.starts[i] as number;
  }

  end(i: number): number {
    return this.ends[i] as number;
  }

  /** The spans as a Map of their own. */
  toMap(): Map<string, ByteSpan> {
    const map = new Map<string, ByteSpan>();
    for (let i = 0; i < this.size; i++) map.set(this.key(i), { start: this.start(i), end: this.end(i) });
    return map;
  }
}

/**
 * The object opening at `at`, before `to`: each member's span written to `spans` (of the keys in `only`,
 * where given); with `within`, that member's own members too where its value is an object, written to
 * `inner` (found in the same pass, not by scanning it twice; of the keys in `withinOnly`). Returns where it
 * ends (just past its `}`), or -1 when it is not one whole object.
 */
function objectAt(bytes: Buffer, at: number, to: number, spans: MemberSpans, only?: KeySet, within?: string, inner?: MemberSpans, withinOnly?: KeySet): number {
  if (bytes[at] !== 0x7b) return -1;
  at = skipSpace(bytes, at + 1, to);
  if (bytes[at] === 0x7d) return at + 1;
  for (;;) {
    if (bytes[at] !== QUOTE) return -1;
    const close = stringEnd(bytes, at, to);
    if (close < 0) return -1;
    // A key none of `only` can be is not decoded: most of a response's thirty members.
    let escaped = false;
    for (let i = at + 1; i < close && !escaped; i++) escaped = bytes[i] === BACKSLASH;
    let key = only && !escaped && !only.lengths.has(close - at - 1) ? null : keyAt(bytes, at + 1, close);
    if (key !== null && escaped) {
      try {
        key = JSON.parse(`"${key}"`) as string;
      } catch {
        return -1;
      }
    }
    at = skipSpace(bytes, close + 1, to);
    if (bytes[at] !== 0x3a) return -1;
    at = skipSpace(bytes, at + 1, to);
    // A repeated key's last value stands, as JSON.parse has it: its members too.
    let end: number;
    if (key === within && inner) {
      inner.clear();
      end = bytes[at] === 0x7b ? objectAt(bytes, at, to, inner, withinOnly) : -1;
      // No whole object: none of its members is read, and it is passed over as any value.
      if (end < 0) {
        inner.clear();
        end = valueEnd(bytes, at, to);
      }
    } else end = valueEnd(bytes, at, to);
    if (end < 0) return -1;
    if (key !== null && (!only || only.keys.has(key))) spans.set(key, at, end);
    at = skipSpace(bytes, end, to);
    if (bytes[at] === 0x7d) return at + 1;
    if (bytes[at] !== 0x2c) return -1;
    at = skipSpace(bytes, at + 1, to);
  }
}

/**
 * Whether bytes[from, to) hold one JSON object, white space around it: its members written to `spans`, each
 * key (decoded) with its value's span, in order, and with `within`, that member's members to `inner` (of the
 * keys in `withinOnly`; none where its value is no whole object). Values are not checked beyond their
 * bounds: parse a span to read it. A repeated key keeps its first place and its last value, as JSON.parse does.
 */
export function scanMembers(bytes: Buffer, from: number, to: number, spans: MemberSpans, within?: string, inner?: MemberSpans, withinOnly?: KeySet): boolean {
  spans.clear();
  inner?.clear();
  const end = objectAt(bytes, skipSpace(bytes, from, to), to, spans, undefined, within, inner, withinOnly);
  return end >= 0 && skipSpace(bytes, end, to) === to;
}

/** `scanMembers` into Maps of their own: the object's members, or null when the bytes are not one whole object. */
export function memberSpans(bytes: Buffer, from: number, to: number): Map<string, ByteSpan> | null {
  const spans = new MemberSpans();
  return scanMembers(bytes, from, to, spans) ? spans.toMap() : null;
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
