// A long read of a local log split at newlines into parts, read at once by this thread and others, each
// claiming the next part not yet claimed until none is left (a thread that starts late, or runs on a busier
// core, reads fewer). Records cross back as a reader's packer makes them, and join the log in file order,
// as one read here would have made them.
import type { Problem } from '../../shared/model';
import { append } from '../../shared/arrays';
import type { CellFs } from './fs';
import { readSteps, type LinePacker, type LineReader, type LogRead } from './line-steps';

/** The parts of a log to read, for a thread: bytes [bounds[k], bounds[k + 1]) of the file at `path`. */
export interface PartsJob {
  reader: string;
  path: string;
  /** The log as problems name it. */
  label: string;
  bounds: number[];
  /** The next part to claim, one Int32 shared by every thread reading the parts (Atomics.add). */
  next: Int32Array;
}

/** What a thread read of part `index`: its records packed, its problems (lines from 1), how far it got. */
export interface PartRead {
  index: number;
  packed: unknown;
  problems: Problem[];
  /** The byte its reading stopped at: the part's end, but where the file changed under it. */
  offset: number;
  lines: number;
  skipping: boolean;
}

/** What a thread reading parts sends: each part as it is read, then that it is done. */
export type PartsMessage = { type: 'part'; part: PartRead } | { type: 'done' };

/** Threads to read parts of local logs on (main provides them: they need the worker's script). */
export interface LineSplitter {
  /** Threads a read is shared among, this one included. */
  threads: number;
  /** About how many bytes each part is. */
  partBytes: number;
  /** Parts of `job` read on a thread, each handed to `onPart` as it is read; settled when the thread is done. */
  read(job: PartsJob, onPart: (part: PartRead) => void): Promise<void>;
}

/**
 * Parts of `job` claimed and read in turn until none is left (`reader` is the job's), each handed to
 * `send` with the buffers its records are in. A turn of the event loop passes after each: the thread that
 * joins the parts hears the others' meanwhile (its file calls may all be synchronous).
 */
export async function readParts<T>(fs: CellFs, job: PartsJob, reader: LineReader<T> & { packer: LinePacker<T> }, send: (part: PartRead, transfer: ArrayBuffer[]) => void): Promise<void> {
  const buffers: Buffer[] = [];
  for (let index = Atomics.add(job.next, 0, 1); index < job.bounds.length - 1; index = Atomics.add(job.next, 0, 1)) {
    const log: LogRead = { offset: job.bounds[index] as number, line: 1, records: [], problems: [], skipping: false };
    await readSteps(fs, job.path, job.label, reader, log, job.bounds[index + 1] as number, buffers);
    const { packed, transfer } = reader.packer.pack(log.records as T[]);
    send({ index, packed, problems: log.problems, offset: log.offset, lines: log.line - 1, skipping: log.skipping }, transfer);
    await new Promise(setImmediate);
  }
}

/** Bytes a newline is first looked for in; doubled until one is found. */
const LOOK_BYTES = 64 * 1024;

/** The byte after the first newline at or past `from`, or null when there is none before `end`. */
async function afterNewline(fs: CellFs, path: string, from: number, end: number): Promise<number | null> {
  for (let at = from, size = LOOK_BYTES; at < end; at += size, size *= 2) {
    const read = await fs.readBytes(path, at, Math.min(size, end - at));
    if (!read || read.bytes.length === 0) return null;
    const newline = read.bytes.indexOf(0x0a);
    if (newline >= 0) return at + newline + 1 < end ? at + newline + 1 : null;
  }
  return null;
}

/** Where each part of bytes [from, end) starts, then `end`: about `size` bytes each, each ending with a newline. */
export async function partBounds(fs: CellFs, path: string, from: number, end: number, size: number): Promise<number[]> {
  const bounds = [from];
  for (let target = from + size; target < end; target = (bounds.at(-1) as number) + size) {
    const start = await afterNewline(fs, path, target, end);
    if (start === null) break;
    bounds.push(start);
  }
  bounds.push(end);
  return bounds;
}

/** What a reader of a log does during a long read of it, which other threads may share. */
export interface LogHooks<T> {
  /** Done first on this thread, while the others start on the log (where a read is not split, before it). */
  meanwhile?: () => Promise<void>;
  /** Hears the records grow in file order as parts join the log: once `meanwhile` is done, then each time some did. */
  onRecords?: (records: readonly T[]) => void;
}

/**
 * `log` read on to `end` in parts, by this thread and the splitter's at once. Parts join the log in file
 * order as soon as those before them have (`hooks`). A part no thread handed back (one failed) is read here
 * in its turn; a part that stopped short of its end (the file changed under it) ends the read there, and
 * the next read goes on from it.
 */
export async function readSplit<T>(split: LineSplitter, fs: CellFs, path: string, label: string, reader: LineReader<T> & { packer: LinePacker<T> }, log: LogRead, end: number, hooks: LogHooks<T> = {}): Promise<void> {
  const job: PartsJob = { reader: reader.name, path, label, bounds: await partBounds(fs, path, log.offset, end, split.partBytes), next: new Int32Array(new SharedArrayBuffer(4)) };
  const parts = job.bounds.length - 1;
  const read = new Map<number, PartRead>();
  let joined = 0;
  const join = (part: PartRead) => {
    const shift = log.line - 1;
    append(log.records, reader.packer.unpack(part.packed, shift));
    for (const p of part.problems) log.problems.push(p.line === undefined ? p : { ...p, line: p.line + shift });
    log.offset = part.offset;
    log.line += part.lines;
    log.skipping = part.skipping;
    joined++;
  };
  /** Whether the log goes on at part `index` (none before it stopped short). */
  const goesOn = (index: number) => log.offset === job.bounds[index] && !log.skipping;
  let started = false;
  const keep = (part: PartRead) => {
    read.set(part.index, part);
    const before = joined;
    for (let next = read.get(joined); next && goesOn(joined); next = read.get(joined)) {
      read.delete(joined);
      join(next);
    }
    if (joined > before && started) hooks.onRecords?.(log.records as T[]);
  };
  // What a hook throws as another thread's part arrives fails this read, not the thread's handler.
  let failed: { error: unknown } | undefined;
  const heard = (part: PartRead) => {
    try {
      keep(part);
    } catch (error) {
      failed ??= { error };
    }
  };
  const helpers = Array.from({ length: Math.min(split.threads - 1, parts - 1) }, () => split.read(job, heard).catch(() => undefined));
  await hooks.meanwhile?.();
  started = true;
  hooks.onRecords?.(log.records as T[]);
  await readParts(fs, job, reader, keep);
  await Promise.all(helpers);
  if (failed) throw failed.error;
  while (joined < parts && goesOn(joined)) {
    const part = read.get(joined);
    if (part) join(part);
    else {
      await readSteps(fs, path, label, reader, log, job.bounds[joined + 1] as number);
      joined++;
    }
  }
}
