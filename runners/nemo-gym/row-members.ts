// A NeMo Gym row's members as a summary reads them, from its bytes: the row's own, and its response's
// usage and model. Every member is found by its bounds (strings skipped by the buffer's native search);
// only the members a summary keeps are decoded and parsed, never the conversation around them.
import { parseJson } from '../../shared/json';
import type { JsonObject } from '../common/json';
import { keySet, memberSpansWithin, type ByteSpan } from '../common/json-bytes';

/** An environment field longer than this (a SWE patch, a transcript) is kept as its size, read when the row is opened. */
export const SMALL_FIELD_CHARS = 400;

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

/** Members found as spans of the row's bytes (and its response's), each parsed when it is asked for. */
class SpanMembers implements Members {
  constructor(
    private readonly bytes: Buffer,
    private readonly spans: Map<string, ByteSpan>,
    private readonly response: Map<string, ByteSpan>,
  ) {}
  private parse(span: ByteSpan | undefined): unknown {
    if (!span) return undefined;
    try {
      return parseJson(this.bytes.toString('utf8', span.start, span.end));
    } catch {
      return undefined;
    }
  }
  has(key: string) {
    return this.spans.has(key);
  }
  value(key: string) {
    return this.parse(this.spans.get(key));
  }
  fields(skip: ReadonlySet<string>): Fields {
    const found: Fields = { small: {}, large: {} };
    for (const [key, span] of this.spans) {
      if (skip.has(key)) continue;
      const size = span.end - span.start;
      found.small[key] = size > SMALL_FIELD_CHARS ? undefined : this.parse(span);
      if (size > SMALL_FIELD_CHARS) found.large[key] = size;
    }
    return found;
  }
  usage() {
    return this.parse(this.response.get('usage'));
  }
  model() {
    return this.parse(this.response.get('model'));
  }
}

/** The response's members a summary reads. */
const RESPONSE_KEYS = keySet(['usage', 'model']);

/** The members of the row in bytes[start, end); null when it is not one JSON object. */
export function rowMembers(bytes: Buffer, start: number, end: number): Members | null {
  const row = bytes.subarray(start, end);
  const found = memberSpansWithin(row, 0, row.length, 'response', RESPONSE_KEYS);
  return found && new SpanMembers(row, found.spans, found.inner);
}

/** Members already parsed (a materialized input, read whole). */
export class ParsedMembers implements Members {
  constructor(private readonly top: JsonObject) {}
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
    return undefined;
  }
  model() {
    return undefined;
  }
}
