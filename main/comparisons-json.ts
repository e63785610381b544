// The comparisons of `board --json` (runners/FORMATS.md), a line each, written as bytes from the comparison
// table's columns where the table is worked out (a read worker), while the command writes the cells: each
// path and each p-value's text made once. Made into objects and strings first, 180,000 comparisons took
// longer than the comparing.
import { BOARD_FIELDS } from '../shared/board';
import { decideAt, holmLevels, unitsLeft, type ComparisonTable } from '../shared/board-comparisons';
import { terminalJson } from '../shared/json';

const BUFFER_BYTES = 1 << 20;

/** Output gathered into large buffers, each handed to `write` when full (and not touched after). */
export class JsonBytes {
  private buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  private at = 0;

  constructor(private readonly write: (bytes: Uint8Array) => void) {}

  bytes(bytes: Buffer): void {
    if (this.at + bytes.length > this.buffer.length) this.flush(bytes.length);
    this.buffer.set(bytes, this.at);
    this.at += bytes.length;
  }

  /** Bytes `start` up to `end` of `from`: a piece of many kept in one buffer, read from one place. */
  range(from: Buffer, start: number, end: number): void {
    if (this.at + end - start > this.buffer.length) this.flush(end - start);
    this.at += from.copy(this.buffer, this.at, start, end);
  }

  text(text: string): void {
    const length = Buffer.byteLength(text);
    if (this.at + length > this.buffer.length) this.flush(length);
    this.at += this.buffer.write(text, this.at);
  }

  /** A count (a whole number from 0) in decimal after its key, a few bytes copied here rather than a call to copy them. */
  keyed(key: Buffer, value: number): void {
    if (this.at + key.length + 16 > this.buffer.length) this.flush(key.length + 16);
    const buffer = this.buffer;
    let at = this.at;
    for (let i = 0; i < key.length; i++) buffer[at++] = key[i] as number;
    if (value < 100) {
      // Most counts: one or two digits, written without a division loop.
      if (value >= 10) buffer[at++] = 48 + ((value / 10) | 0);
      buffer[at++] = 48 + (value % 10);
      this.at = at;
      return;
    }
    let digits = 1;
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    for (let i = digits - 1, rest = value; i >= 0; i--, rest = Math.floor(rest / 10)) buffer[at + i] = 48 + (rest % 10);
    this.at = at + digits;
  }

  /** Writes what is gathered; the next buffer holds at least `room` bytes. */
  flush(room = 0): void {
    if (this.at > 0) this.write(this.buffer.subarray(0, this.at));
    // A fresh buffer: the written one may still be on its way out, or handed to another thread.
    this.buffer = Buffer.allocUnsafe(Math.max(BUFFER_BYTES, room));
    this.at = 0;
  }
}

const ascii = (text: string) => Buffer.from(text, 'latin1');
/** A comparison's keys before its counts (the first, "both", ends the piece of its b). */
const K = { onlyA: ascii(',"only_a":'), onlyB: ascii(',"only_b":'), neither: ascii(',"neither":'), leftOut: ascii(',"left_out":') };
const NONE = Buffer.alloc(0);

/**
 * Each comparison's end as bytes: its p-values, `decides_in` and `futile` (shared/decide.ts), one search for
 * each distinct pair of discordant counts (a p's id), paired count and units left, found by small numbers
 * (a key a comparison took longer than its search).
 */
function tailPieces(table: ComparisonTable, planned: ReadonlyMap<string, number | null>): (k: number) => Buffer {
  const levels = holmLevels(table);
  const plannedAt = table.paths.map((path) => planned.get(path) ?? null);
  const byP: (Map<number | string, Buffer> | undefined)[] = [];
  return (k) => {
    const paired = (table.both[k] as number) + (table.onlyA[k] as number) + (table.onlyB[k] as number) + (table.neither[k] as number);
    const left = unitsLeft(plannedAt[table.a[k] as number] as number | null, plannedAt[table.b[k] as number] as number | null, paired);
    const p = table.p[k] as number;
    // Below 2^18 paired and 2^12 left, one small integer keys them (a Map keyed by a double is slow).
    const key = paired < 1 << 18 && (left ?? 0) < (1 << 12) - 1 ? paired * 4096 + (left === null ? 0 : left + 1) : `${paired},${left}`;
    let pieces = byP[p];
    if (!pieces) byP[p] = pieces = new Map();
    let piece = pieces.get(key);
    if (!piece) {
      const { further, futile } = decideAt(table, k, levels, (path) => planned.get(path) ?? null);
      pieces.set(key, (piece = ascii(`,"p_value":${table.pValues[p]},"p_adjusted":${table.adjusted[p]},"decides_in":${further},"futile":${futile}}`)));
    }
    return piece;
  };
}

/**
 * Pieces of text, one after another in one buffer, each found by its number: thousands of small buffers
 * are read from as many places, each a wait on memory when 180,000 comparisons pick them at random.
 */
class Pieces {
  readonly bytes: Buffer;
  /** Piece i is bytes starts[i] up to starts[i + 1]. */
  readonly starts: Int32Array;

  constructor(texts: string[]) {
    this.starts = new Int32Array(texts.length + 1);
    texts.forEach((text, i) => (this.starts[i + 1] = (this.starts[i] as number) + Buffer.byteLength(text)));
    this.bytes = Buffer.from(texts.join(''));
  }
}

/** The comparisons, each cell's planned units by path: what goes between the brackets of `"comparisons": [...]`. */
export function writeComparisons(out: JsonBytes, table: ComparisonTable, planned: ReadonlyMap<string, number | null>): void {
  // Each comparison is three pieces made once (its a's path, its b's path with its field, its end) and its five counts.
  const quoted = table.paths.map((path) => terminalJson(path));
  // As a: the start of a line after another (the first line's is the same without its comma).
  const aPieces = new Pieces(quoted.map((path) => `,\n    {"a":${path},"b":`));
  // As b, in each field: piece `place * fields + field`.
  const bPieces = new Pieces(quoted.flatMap((path) => BOARD_FIELDS.map((field) => `${path},"field":"${field}","both":`)));
  const tailPiece = tailPieces(table, planned);
  for (let k = 0; k < table.a.length; k++) {
    const a = table.a[k] as number;
    out.range(aPieces.bytes, (aPieces.starts[a] as number) + (k === 0 ? 1 : 0), aPieces.starts[a + 1] as number);
    const b = (table.b[k] as number) * BOARD_FIELDS.length + (table.field[k] as number);
    out.range(bPieces.bytes, bPieces.starts[b] as number, bPieces.starts[b + 1] as number);
    out.keyed(NONE, table.both[k] as number);
    out.keyed(K.onlyA, table.onlyA[k] as number);
    out.keyed(K.onlyB, table.onlyB[k] as number);
    out.keyed(K.neither, table.neither[k] as number);
    out.keyed(K.leftOut, table.leftOut[k] as number);
    out.bytes(tailPiece(k));
  }
}

/** The comparisons' bytes as they come from the worker writing them: kept until `drainTo`, then handed on as they come. */
export class HeldBytes {
  private held: Uint8Array[] = [];
  private write: ((bytes: Uint8Array) => void) | null = null;

  add(bytes: Uint8Array): void {
    if (this.write) this.write(bytes);
    else this.held.push(bytes);
  }

  drainTo(write: (bytes: Uint8Array) => void): void {
    for (const bytes of this.held) write(bytes);
    this.held = [];
    this.write = write;
  }
}
