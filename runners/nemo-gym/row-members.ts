// A NeMo Gym row's members as a summary reads them, from its bytes: the row's own, and its response's
// usage and model. Every member is found by its bounds (strings skipped by the buffer's native search);
// only the members a summary keeps are decoded and parsed, never the conversation around them.
import { parseJson } from '../../shared/json';
import { agentName } from './agent-name';
import { keySet, MemberSpans, NOT_SCALAR, scalarAt, scanMembers } from '../common/json-bytes';

/** The value of the JSON in bytes[start, end); undefined where it is malformed (that member alone). */
export function parseMember(bytes: Buffer, start: number, end: number): unknown {
  const scalar = scalarAt(bytes, start, end);
  if (scalar !== NOT_SCALAR) return scalar;
  try {
    return parseJson(bytes.toString('utf8', start, end));
  } catch {
    return undefined;
  }
}

/** The response's members a summary reads. */
const RESPONSE_KEYS = keySet(['usage', 'model']);

/**
 * The members of a row of `bytes` found as spans (and its response's), each parsed when it is asked for.
 * One is scanned again for each row of the bytes (`scan`): what it says is the last row's.
 */
export class SpanMembers {
  private readonly spans = new MemberSpans();
  private readonly response = new MemberSpans();
  /** The last agent_ref read, as its bytes, and the name it gives: the rows of a collection name one agent or a few. */
  private lastRef = Buffer.alloc(0);
  private lastAgent: string | null = null;

  constructor(private readonly bytes: Buffer) {}

  /** Reads the members of the row in bytes[start, end); false when it is not one JSON object. */
  scan(start: number, end: number): boolean {
    return scanMembers(this.bytes, start, end, this.spans, 'response', this.response, RESPONSE_KEYS);
  }
  private parse(spans: MemberSpans, key: string): unknown {
    const at = spans.indexOf(key);
    return at < 0 ? undefined : parseMember(this.bytes, spans.start(at), spans.end(at));
  }
  has(key: string) {
    return this.spans.indexOf(key) >= 0;
  }
  value(key: string) {
    return this.parse(this.spans, key);
  }
  /** Each member not in `skip` (keys as the row gives them), in the row's order, as its bytes. */
  eachField(skip: ReadonlySet<string>, visit: (key: string, bytes: Buffer, start: number, end: number) => void): void {
    for (let i = 0; i < this.spans.size; i++) if (!skip.has(this.spans.key(i))) visit(this.spans.key(i), this.bytes, this.spans.start(i), this.spans.end(i));
  }
  /** The name its agent_ref gives the agent (agentName). */
  agent() {
    const at = this.spans.indexOf('agent_ref');
    if (at < 0) return null;
    const start = this.spans.start(at);
    const end = this.spans.end(at);
    if (!sameBytes(this.bytes, start, end, this.lastRef)) {
      this.lastAgent = agentName(parseMember(this.bytes, start, end));
      this.lastRef = Buffer.from(this.bytes.subarray(start, end));
    }
    return this.lastAgent;
  }
  usage() {
    return this.parse(this.response, 'usage');
  }
  model() {
    return this.parse(this.response, 'model');
  }
}

/** Whether bytes[start, end) are the bytes of `other`. */
function sameBytes(bytes: Buffer, start: number, end: number, other: Buffer): boolean {
  if (end - start !== other.length) return false;
  for (let i = 0; i < other.length; i++) if (bytes[start + i] !== other[i]) return false;
  return true;
}
