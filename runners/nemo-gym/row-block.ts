// A NeMo Gym collection's rows as the reader keeps them: blocks of typed arrays, one a chunk read, and a
// row made whole (NemoRow) only when a table or a transcript asks for it (formats.md section 5).
import { num, obj, str } from '../common/values';
import { parseMember, type SpanMembers } from './row-members';

/** An environment field longer than this (a SWE patch, a transcript) is kept as its size, read when the row is opened. */
const SMALL_FIELD_CHARS = 400;

/** Bytes of a field copied one by one: more are copied by the buffer's own copy. */
const SHORT_COPY = 32;

/** A row's environment fields: small ones as they are, a long one by its size. */
interface Fields {
  /** Each member by its name; one too long to keep is present as undefined, its size in `large`. */
  small: Record<string, unknown>;
  /** Members longer than SMALL_FIELD_CHARS, by the bytes of their JSON. */
  large: Record<string, number>;
}

/**
 * Members that are not the environment's fields: the conversation itself (never parsed for a summary),
 * and the row's own bookkeeping, read into named fields.
 */
const NOT_FIELDS = new Set([
  ...['responses_create_params', 'response', 'ng_trajectory', 'ng_agent_observations'],
  ...['_ng_task_index', '_ng_rollout_index', '_ng_attempt_index', '_ng_failure_class', '_ng_failure_terminal', '_ng_failure_message', 'agent_ref', 'reward'],
]);

export interface RowUsage {
  input: number | null;
  cached: number | null;
  output: number | null;
  reasoning: number | null;
}

/** A row as a table, a transcript or a test sees it: made from its block when asked for (RowBlock.row). */
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

// A row's whole numbers in a block, each at its row's place times WHOLES plus its own: kept as what
// JavaScript holds without an object of its own (a small integer), as a count reads them once each before
// it is optimized; NONE where a row gives none, OTHER where it is no such integer (kept apart).
const LINE = 0;
const TASK = 1;
const REPEAT = 2;
const ATTEMPT = 3;
const INPUT = 4;
const CACHED = 5;
const OUTPUT = 6;
const REASONING = 7;
/** The reward where it is a small integer (0, 1: most are), OTHER where it is another finite number, NONE where it is no finite number. */
const SCORE = 8;
const WHOLES = 9;
const NONE = -(2 ** 31);
const OTHER = NONE + 1;
const SMALL = 2 ** 30;
// A row's other numbers: where its line starts, its reward (NaN where that is no finite number, kept apart).
// A reward read as a float is a number object of its own each time, which a count keeps by the thousand.
const OFFSET = 0;
const REWARD = 1;
const FLOATS = 2;
// A row's codes in a block: its names (an index of the block's names, -1 for none), its flags, and where
// its fields' spans end.
const AGENT = 0;
const MODEL = 1;
const CLASS = 2;
const FLAGS = 3;
const FIELDS_END = 4;
const CODES = 5;
const HAS_USAGE = 1;
const TERMINAL = 2;
const OBSERVED = 4;
/** A field's span in a block: its key's index, then where its JSON starts and ends in the block's field bytes (a long one: -1, its size). */
const SPAN = 3;

/** A row's values a count reads (RowBlock.readCounted). */
export interface CountedValues {
  line: number;
  task: number;
  repeat: number | null;
  /** The reward where it is a finite number (scored), else null. */
  scored: number | null;
  agent: string | null;
  model: string | null;
  /** Input, cached, output and reasoning tokens, each null where the row gives none. */
  tokens: (number | null)[];
}

/** A RowBlock's parts, as one crosses threads (RowBlock.pack): each typed array holds a buffer of its own. */
export interface PackedBlock {
  length: number;
  wholes: Int32Array;
  otherWholes: ReadonlyMap<number, number>;
  floats: Float64Array;
  codes: Int32Array;
  names: readonly string[];
  otherRewards: ReadonlyMap<number, unknown>;
  spans: Int32Array;
  fieldBytes: Uint8Array;
  keys: readonly string[];
}

/**
 * A chunk's rows as the reader keeps them: their numbers and names in typed arrays, their small
 * environment fields as the bytes of their JSON, parsed when a table asks for a row. A gigabyte's 100,000
 * rows are a few hundred of these, not a million objects to build, hold and collect.
 */
export class RowBlock {
  constructor(
    readonly length: number,
    private readonly wholes: Int32Array,
    /** The whole numbers that are OTHER, by their row's place times WHOLES plus their own. */
    private readonly otherWholes: ReadonlyMap<number, number>,
    private readonly floats: Float64Array,
    private readonly codes: Int32Array,
    private readonly names: readonly string[],
    /** The rewards that are not finite numbers, by row: true, "n/a", null, undefined where a row has none. */
    private readonly otherRewards: ReadonlyMap<number, unknown>,
    private readonly spans: Int32Array,
    private readonly fieldBytes: Buffer,
    private readonly keys: readonly string[],
  ) {}

  private name(i: number, code: number): string | null {
    const at = this.codes[i * CODES + code] as number;
    return at < 0 ? null : (this.names[at] as string);
  }

  private flag(i: number, flag: number): boolean {
    return ((this.codes[i * CODES + FLAGS] as number) & flag) !== 0;
  }

  private whole(i: number, which: number): number | null {
    const at = i * WHOLES + which;
    const value = this.wholes[at] as number;
    return value === NONE ? null : value === OTHER ? (this.otherWholes.get(at) as number) : value;
  }

  line(i: number): number {
    return this.whole(i, LINE) as number;
  }

  offset(i: number): number {
    return this.floats[i * FLOATS + OFFSET] as number;
  }

  task(i: number): number {
    return this.whole(i, TASK) as number;
  }

  repeat(i: number): number | null {
    return this.whole(i, REPEAT);
  }

  agent(i: number): string | null {
    return this.name(i, AGENT);
  }

  model(i: number): string | null {
    return this.name(i, MODEL);
  }

  failureClass(i: number): string | null {
    return this.name(i, CLASS);
  }

  terminal(i: number): boolean {
    return this.flag(i, TERMINAL);
  }

  /** The reward as a finite number, null when it is anything else (not scored). */
  scoredReward(i: number): number | null {
    const score = this.wholes[i * WHOLES + SCORE] as number;
    return score === NONE ? null : score === OTHER ? (this.floats[i * FLOATS + REWARD] as number) : score;
  }

  reward(i: number): unknown {
    return this.scoredReward(i) ?? this.otherRewards.get(i);
  }

  usage(i: number): RowUsage | null {
    if (!this.flag(i, HAS_USAGE)) return null;
    return { input: this.whole(i, INPUT), cached: this.whole(i, CACHED), output: this.whole(i, OUTPUT), reasoning: this.whole(i, REASONING) };
  }

  /** What a count reads of the row, written into `into` (one object for every row counted). */
  readCounted(i: number, into: CountedValues): void {
    into.line = this.whole(i, LINE) as number;
    into.task = this.whole(i, TASK) as number;
    into.repeat = this.whole(i, REPEAT);
    for (let which = 0; which < 4; which++) into.tokens[which] = this.whole(i, INPUT + which);
    into.scored = this.scoredReward(i);
    into.agent = this.name(i, AGENT);
    into.model = this.name(i, MODEL);
  }

  /** The row's input, cached, output or reasoning tokens (`which`, 0 to 3); null where it gives none. */
  tokenCount(i: number, which: number): number | null {
    return this.whole(i, INPUT + which);
  }

  attempt(i: number): number | null {
    return this.whole(i, ATTEMPT);
  }

  /** Where the row's field spans are: from, to (in `spans`). */
  private fieldSpans(i: number): [number, number] {
    return [i === 0 ? 0 : (this.codes[(i - 1) * CODES + FIELDS_END] as number), this.codes[i * CODES + FIELDS_END] as number];
  }

  /** One of the row's environment fields, parsed now; undefined where it has none, or a long one. */
  field(i: number, name: string): unknown {
    const [from, to] = this.fieldSpans(i);
    for (let at = from; at < to; at += SPAN) {
      if (this.keys[this.spans[at] as number] !== name) continue;
      const start = this.spans[at + 1] as number;
      return start < 0 ? undefined : parseMember(this.fieldBytes, start, this.spans[at + 2] as number);
    }
    return undefined;
  }

  /** The row's environment fields, parsed now. */
  fields(i: number): Fields {
    const found: Fields = { small: {}, large: {} };
    const [from, to] = this.fieldSpans(i);
    for (let at = from; at < to; at += SPAN) {
      const key = this.keys[this.spans[at] as number] as string;
      const start = this.spans[at + 1] as number;
      const end = this.spans[at + 2] as number;
      found.small[key] = start < 0 ? undefined : parseMember(this.fieldBytes, start, end);
      if (start < 0) found.large[key] = end;
    }
    return found;
  }

  /** The block as it crosses to another thread: its arrays to be moved there (`transfer`), the rest copied. */
  pack(): { packed: PackedBlock; transfer: ArrayBuffer[] } {
    const { length, wholes, otherWholes, floats, codes, names, otherRewards, spans, fieldBytes, keys } = this;
    const packed: PackedBlock = { length, wholes, otherWholes, floats, codes, names, otherRewards, spans, fieldBytes, keys };
    return { packed, transfer: [packed.wholes, packed.floats, packed.codes, packed.spans, packed.fieldBytes].map((array) => array.buffer as ArrayBuffer) };
  }

  /** A block that crossed from another thread, each line number `shift` further on (its arrays taken over). */
  static unpack(packed: PackedBlock, shift: number): RowBlock {
    const { length, wholes, floats, codes, names, otherRewards, spans, fieldBytes, keys } = packed;
    const otherWholes = new Map(packed.otherWholes);
    for (let at = LINE; at < length * WHOLES; at += WHOLES) {
      const line = (wholes[at] === OTHER ? (otherWholes.get(at) as number) : (wholes[at] as number)) + shift;
      wholes[at] = line < SMALL ? line : OTHER;
      if (line >= SMALL) otherWholes.set(at, line);
    }
    return new RowBlock(length, wholes, otherWholes, floats, codes, names, otherRewards, spans, Buffer.from(fieldBytes.buffer, fieldBytes.byteOffset, fieldBytes.length), keys);
  }

  row(i: number): NemoRow {
    const fields = this.fields(i);
    return {
      line: this.line(i),
      offset: this.offset(i),
      task: this.task(i),
      repeat: this.repeat(i),
      attempt: this.attempt(i),
      agent: this.agent(i),
      reward: this.reward(i),
      usage: this.usage(i),
      model: this.model(i),
      failureClass: this.failureClass(i),
      terminal: this.terminal(i),
      fields: fields.small,
      largeFields: fields.large,
      observed: this.flag(i, OBSERVED),
    };
  }
}

/** A typed array twice as long, holding what `array` held. */
function grown<T extends Float64Array | Int32Array>(array: T): T {
  const next = new (array.constructor as new (length: number) => T)(array.length * 2);
  next.set(array);
  return next;
}

/**
 * The room a BlockWriter writes into, kept from one chunk to the next (a block is copied out of it when
 * done): growing it anew for each chunk of a gigabyte took a tenth of the read.
 */
const room = { wholes: new Int32Array(1024 * WHOLES), floats: new Float64Array(1024 * FLOATS), codes: new Int32Array(1024 * CODES), spans: new Int32Array(8192 * SPAN), fieldBytes: Buffer.allocUnsafe(1 << 20) };

/** A chunk's RowBlock as its rows are read: each row's values written in, its names and keys once each. */
export class BlockWriter {
  private count = 0;
  private spanCount = 0;
  private byteCount = 0;
  private readonly names: string[] = [];
  private readonly nameCodes = new Map<string, number>();
  private readonly otherRewards = new Map<number, unknown>();
  private readonly otherWholes = new Map<number, number>();
  private readonly keys: string[] = [];
  private readonly keyCodes = new Map<string, number>();

  private code(name: string | null): number {
    if (name === null) return -1;
    let code = this.nameCodes.get(name);
    if (code === undefined) this.nameCodes.set(name, (code = this.names.push(name) - 1));
    return code;
  }

  private field(key: string, bytes: Buffer, start: number, end: number): void {
    let keyCode = this.keyCodes.get(key);
    if (keyCode === undefined) this.keyCodes.set(key, (keyCode = this.keys.push(key) - 1));
    if (this.spanCount + SPAN > room.spans.length) room.spans = grown(room.spans);
    const large = end - start > SMALL_FIELD_CHARS;
    if (!large) {
      while (this.byteCount + end - start > room.fieldBytes.length) room.fieldBytes = Buffer.concat([room.fieldBytes.subarray(0, this.byteCount), Buffer.allocUnsafe(room.fieldBytes.length)]);
      // A short one byte by byte: most are a number or a word, and the buffer's own copy costs more to call.
      if (end - start <= SHORT_COPY) for (let i = start, to = this.byteCount; i < end; i++, to++) room.fieldBytes[to] = bytes[i] as number;
      else bytes.copy(room.fieldBytes, this.byteCount, start, end);
    }
    const spans = room.spans;
    spans[this.spanCount] = keyCode;
    spans[this.spanCount + 1] = large ? -1 : this.byteCount;
    spans[this.spanCount + 2] = large ? end - start : this.byteCount + end - start;
    this.spanCount += SPAN;
    if (!large) this.byteCount += end - start;
  }

  private whole(i: number, which: number, value: number | null): void {
    const at = i * WHOLES + which;
    if (value === null) room.wholes[at] = NONE;
    else if (Number.isInteger(value) && value >= -SMALL && value < SMALL) room.wholes[at] = value;
    else {
      room.wholes[at] = OTHER;
      this.otherWholes.set(at, value);
    }
  }

  /** Writes in the row of these members, which name this unit (plannedOf). */
  add(members: SpanMembers, unit: PlannedUnit, offset: number): void {
    const i = this.count++;
    if (this.count * WHOLES > room.wholes.length) [room.wholes, room.floats, room.codes] = [grown(room.wholes), grown(room.floats), grown(room.codes)];
    const reward = members.value('reward');
    const usage = obj(members.usage());
    const hasUsage = Object.keys(usage).length > 0;
    this.whole(i, LINE, unit.line);
    this.whole(i, TASK, unit.task);
    this.whole(i, REPEAT, unit.repeat);
    this.whole(i, ATTEMPT, num(members.value('_ng_attempt_index')));
    this.whole(i, INPUT, num(usage.input_tokens));
    this.whole(i, CACHED, num(obj(usage.input_tokens_details).cached_tokens));
    this.whole(i, OUTPUT, num(usage.output_tokens));
    this.whole(i, REASONING, num(obj(usage.output_tokens_details).reasoning_tokens));
    room.floats[i * FLOATS + OFFSET] = offset;
    const scored = num(reward);
    room.floats[i * FLOATS + REWARD] = scored ?? NaN;
    room.wholes[i * WHOLES + SCORE] = scored === null ? NONE : Number.isInteger(scored) && scored >= -SMALL && scored < SMALL ? scored : OTHER;
    if (scored === null) this.otherRewards.set(i, reward);
    members.eachField(NOT_FIELDS, (key, bytes, start, end) => this.field(key, bytes, start, end));
    const c = room.codes;
    const k = i * CODES;
    c[k + AGENT] = this.code(unit.agent);
    c[k + MODEL] = this.code(str(members.model()));
    c[k + CLASS] = this.code(str(members.value('_ng_failure_class')));
    c[k + FLAGS] = (hasUsage ? HAS_USAGE : 0) | (members.value('_ng_failure_terminal') === true ? TERMINAL : 0) | (members.has('ng_trajectory') || members.has('ng_agent_observations') ? OBSERVED : 0);
    c[k + FIELDS_END] = this.spanCount;
  }

  /** The block of the rows written in, copied out of the room; null when none was. */
  done(): RowBlock | null {
    if (this.count === 0) return null;
    // A buffer of its own (a small Buffer.from shares Node's pool), so a block can be moved to another thread.
    const fieldBytes = Buffer.from(room.fieldBytes.buffer.slice(room.fieldBytes.byteOffset, room.fieldBytes.byteOffset + this.byteCount));
    return new RowBlock(this.count, room.wholes.slice(0, this.count * WHOLES), this.otherWholes, room.floats.slice(0, this.count * FLOATS), room.codes.slice(0, this.count * CODES), this.names, this.otherRewards, room.spans.slice(0, this.spanCount), fieldBytes, this.keys);
  }
}
