import type { Problem } from '../../shared/model';
import { problem } from '../../shared/model';
import type { CellFs, FileBytes } from './fs';
import { parseJsonl, type JsonlRecord, type LineChunk } from './jsonl';
import { append } from '../../shared/arrays';

/** A JSONL log is read to at most this many bytes. */
export const MAX_LOG_BYTES = 64 * 1024 * 1024;
/** Bytes read per step: a log grown by more is read in several. */
const STEP_BYTES = 4 * 1024 * 1024;

/**
 * How a kind of log is read: each chunk's complete lines into records (`offset` is the chunk's first
 * byte; `consumed` counts bytes), to at most `maxBytes`, `stepBytes` at a time (a longer line is skipped as
 * a problem). The chunk is bytes, valid only while it is parsed (its buffer is read into again): a reader
 * decodes what it keeps.
 */
export interface LineReader<T> {
  name: string;
  parse(bytes: Buffer, file: string, firstLine: number, offset: number): LineChunk<T>;
  maxBytes: number;
  stepBytes: number;
  /** A line longer than a step is read in steps twice as large, up to this; a longer one is skipped. */
  maxLineBytes: number;
}

export const JSONL_LINES: LineReader<JsonlRecord> = {
  name: 'jsonl',
  parse: (bytes, file, firstLine) => parseJsonl(bytes.toString('utf8'), file, firstLine),
  maxBytes: MAX_LOG_BYTES,
  stepBytes: STEP_BYTES,
  maxLineBytes: STEP_BYTES,
};

interface LogRead {
  /** Bytes of complete lines parsed. */
  offset: number;
  /** The next line's number. */
  line: number;
  records: unknown[];
  problems: Problem[];
  /** Inside a line too long to parse: bytes are passed over until its newline. */
  skipping: boolean;
}

export interface JsonlLog<T = JsonlRecord> {
  /** The cache's own list, grown in place as the log is read on: read it, never change it. */
  records: readonly T[];
  problems: Problem[];
  /** The log is longer than its reader's maxBytes: only its start was read. */
  truncated: boolean;
}

/**
 * The JSONL logs adapters read (ledgers, evaluation progress, event logs), each parsed once: a log that
 * grew is read on from the byte it had reached, one that shrank is read again from its start. Only the
 * most recently read logs are kept (the live cells'): the others are parsed whole when next read.
 */
export class JsonlCache {
  private readonly logs = new Map<string, LogRead>();
  private readonly derived = new Map<string, unknown>();

  constructor(private readonly keep = 64) {}

  /**
   * What an adapter keeps beside the logs it reads on (a count of their rows so far), under `key`: made by
   * `make` the first time, kept for the most recently used cells as the logs are.
   */
  kept<T>(key: string, make: () => T): T {
    const value = (this.derived.get(key) as T | undefined) ?? make();
    this.derived.delete(key);
    if (this.keep === 0) return value;
    this.derived.set(key, value);
    if (this.derived.size > this.keep) this.derived.delete(this.derived.keys().next().value as string);
    return value;
  }

  async read<T = JsonlRecord>(fs: CellFs, path: string, label: string, given?: LineReader<T>): Promise<JsonlLog<T>> {
    const reader = (given ?? JSONL_LINES) as LineReader<T>;
    const key = `${reader.name}:${path}`;
    const info = await fs.stat(path);
    if (!info || info.kind !== 'file') {
      this.logs.delete(key);
      return { records: [], problems: [], truncated: false };
    }
    let log = this.logs.get(key);
    if (!log || info.size < log.offset) log = { offset: 0, line: 1, records: [], problems: [], skipping: false };
    // The newest read last: the first one in the map is the one gone longest without a read.
    this.logs.delete(key);
    this.logs.set(key, log);
    if (this.logs.size > this.keep) this.logs.delete(this.logs.keys().next().value as string);

    const { maxBytes, maxLineBytes } = reader;
    let stepBytes = reader.stepBytes;
    const end = Math.min(info.size, maxBytes);
    // Steps are read into two buffers in turn, one parsed while the next is read: a gigabyte read into
    // fresh buffers costs as much again in their pages' first touch.
    const buffers: Buffer[] = [];
    let turn = 0;
    const readAt = (offset: number) => {
      const length = Math.min(stepBytes, end - offset);
      const i = turn++ % 2;
      if ((buffers[i]?.length ?? 0) < length) buffers[i] = Buffer.allocUnsafe(length);
      return fs.readBytes(path, offset, length, buffers[i]);
    };
    let ahead = null as { offset: number; read: Promise<FileBytes | null> } | null;
    while (log.offset < end) {
      let chunk: FileBytes | null;
      if (ahead?.offset === log.offset) chunk = await ahead.read;
      else {
        // A read ahead that parsing did not reach is waited for all the same: its buffer is read into next.
        await ahead?.read.catch(() => null);
        chunk = await readAt(log.offset);
      }
      ahead = null;
      if (!chunk || chunk.bytes.length === 0) break;
      const bytes: Buffer = chunk.bytes;
      if (log.skipping) {
        const newline = bytes.indexOf(0x0a);
        log.offset += newline < 0 ? bytes.length : newline + 1;
        if (newline >= 0) {
          log.skipping = false;
          log.line++;
        }
        continue;
      }
      // The next step is read while this one is parsed: from its last newline on, where parsing will stop.
      const last: number = bytes.lastIndexOf(0x0a);
      if (bytes.length === stepBytes && last >= 0 && log.offset + last + 1 < end) ahead = { offset: log.offset + last + 1, read: readAt(log.offset + last + 1) };
      const parsed = reader.parse(bytes, label, log.line, log.offset);
      append(log.records, parsed.records);
      append(log.problems, parsed.problems);
      log.offset += parsed.consumed;
      log.line += parsed.lines;
      // Read to the end of what there is: a partial last line waits for its newline.
      if (bytes.length < stepBytes) break;
      if (parsed.consumed > 0) {
        stepBytes = reader.stepBytes;
        continue;
      }
      // A whole step without a newline: read again in a larger step, or, past the longest line read, passed over.
      if (stepBytes * 2 <= maxLineBytes) {
        stepBytes *= 2;
        continue;
      }
      log.problems.push(problem(label, `line longer than ${stepBytes >> 20} MB; skipped`, { line: log.line }));
      log.skipping = true;
    }
    const truncated = info.size > maxBytes;
    const problems = truncated ? [...log.problems, problem(label, `only the first ${maxBytes >> 20} MB read`)] : [...log.problems];
    // Not copied: a 123,800-row collection's two lists cost 6 ms a read copied, however little was appended.
    return { records: log.records as T[], problems, truncated };
  }
}
