// A NeMo Gym row's members as a summary reads them, from its bytes: the row's own, and its response's
// usage and model. Every member is found by its bounds (strings skipped by the buffer's native search);
// only the members a summary keeps are decoded and parsed, never the conversation around them.
import { parseJson } from '../../shared/json';
import type { JsonObject } from '../common/json';
import { keySet, memberSpansWithin, type ByteSpan } from '../common/json-bytes';

/** A row's members as the unit it plans is read from them. */
export interface Members {
  has(key: string): boolean;
  value(key: string): unknown;
}

/** The value of the JSON in bytes[start, end); undefined where it is malformed (that member alone). */
export function parseMember(bytes: Buffer, start: number, end: number): unknown {
  try {
    return parseJson(bytes.toString('utf8', start, end));
  } catch {
    return undefined;
  }
}

/** A row's members found as spans of its bytes (and its response's), each parsed when it is asked for. */
export class SpanMembers implements Members {
  constructor(
    private readonly bytes: Buffer,
    private readonly spans: Map<string, ByteSpan>,
    private readonly response: Map<string, ByteSpan>,
  ) {}
  private parse(span: ByteSpan | undefined): unknown {
    return span && parseMember(this.bytes, span.start, span.end);
  }
  has(key: string) {
    return this.spans.has(key);
  }
  value(key: string) {
    return this.parse(this.spans.get(key));
  }
  /** Each member not in `skip` (keys as the row gives them), in the row's order, as its bytes. */
  eachField(skip: ReadonlySet<string>, visit: (key: string, bytes: Buffer, start: number, end: number) => void): void {
    for (const [key, span] of this.spans) if (!skip.has(key)) visit(key, this.bytes, span.start, span.end);
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
export function rowMembers(bytes: Buffer, start: number, end: number): SpanMembers | null {
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
}
