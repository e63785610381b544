// A log read a step at a time from where it was: the loop every line reader shares, on this thread or on
// the threads a long read is split among.
import { problem, type Problem } from '../../shared/model';
import { append } from '../../shared/arrays';
import type { CellFs, FileBytes } from './fs';
import type { LineChunk } from './jsonl';

/** How a reader's records cross threads (split-lines.ts): as typed arrays, moved rather than copied, and a little text. */
export interface LinePacker<T> {
  pack(records: T[]): { packed: unknown; transfer: ArrayBuffer[] };
  /** The records again, each line number `shift` further on (a part counts its lines from 1); `packed` is taken over. */
  unpack(packed: unknown, shift: number): T[];
}

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
  /** How its records cross threads, where a long read of a local log is split among them (split-lines.ts). */
  packer?: LinePacker<T>;
}

/** How far a log has been read, and what its lines made. */
export interface LogRead {
  /** Bytes of complete lines parsed. */
  offset: number;
  /** The next line's number. */
  line: number;
  records: unknown[];
  problems: Problem[];
  /** Inside a line too long to parse: bytes are passed over until its newline. */
  skipping: boolean;
}

/**
 * A log read on from `log.offset` to `end`, a step at a time, each step's complete lines parsed and added to
 * `log`: a partial last line waits, a line longer than the reader's longest is passed over as a problem.
 * Steps are read into two buffers in turn (`buffers`, kept for the next call where given), one parsed while
 * the next is read: a gigabyte read into fresh buffers costs as much again in their pages' first touch.
 */
export async function readSteps<T>(fs: CellFs, path: string, label: string, reader: LineReader<T>, log: LogRead, end: number, buffers: Buffer[] = []): Promise<void> {
  const { maxLineBytes } = reader;
  let stepBytes = reader.stepBytes;
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
}
