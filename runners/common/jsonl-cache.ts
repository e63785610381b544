import { problem, type Problem } from '../../shared/model';
import type { CellFs } from './fs';
import { parseJsonl, type JsonlRecord } from './jsonl';
import { readSteps, type LineReader, type LogRead } from './line-steps';
import { readSplit, type LineSplitter, type LogHooks } from './split-lines';

/** A JSONL log is read to at most this many bytes. */
export const MAX_LOG_BYTES = 64 * 1024 * 1024;
/** The logs a cache keeps read, the most recently read first. */
export const KEPT_LOGS = 64;
/** Bytes read per step: a log grown by more is read in several. */
const STEP_BYTES = 4 * 1024 * 1024;

export const JSONL_LINES: LineReader<JsonlRecord> = {
  name: 'jsonl',
  parse: (bytes, file, firstLine) => parseJsonl(bytes.toString('utf8'), file, firstLine),
  maxBytes: MAX_LOG_BYTES,
  stepBytes: STEP_BYTES,
  maxLineBytes: STEP_BYTES,
};

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
 * most recently read logs are kept (the live cells'): the others are parsed whole when next read. Given
 * `split` (local files), a long read by a reader with a packer is shared out among threads.
 */
export class JsonlCache {
  private readonly logs = new Map<string, LogRead>();
  private readonly derived = new Map<string, unknown>();

  constructor(
    private readonly keep = KEPT_LOGS,
    private readonly split?: LineSplitter,
  ) {}

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

  /**
   * The log at `path` read on from where it was. `hooks.meanwhile` is done first, while the threads a long
   * read is split among start on it; `hooks.onRecords` then hears its records grow in file order (the
   * cache's own list) as the parts join.
   */
  async read<T = JsonlRecord>(fs: CellFs, path: string, label: string, given?: LineReader<T>, hooks: LogHooks<T> = {}): Promise<JsonlLog<T>> {
    const reader = (given ?? JSONL_LINES) as LineReader<T>;
    const key = `${reader.name}:${path}`;
    const info = await fs.stat(path);
    if (!info || info.kind !== 'file') {
      this.logs.delete(key);
      await hooks.meanwhile?.();
      return { records: [], problems: [], truncated: false };
    }
    let log = this.logs.get(key);
    if (!log || info.size < log.offset) log = { offset: 0, line: 1, records: [], problems: [], skipping: false };
    // The newest read last: the first one in the map is the one gone longest without a read.
    this.logs.delete(key);
    this.logs.set(key, log);
    if (this.logs.size > this.keep) this.logs.delete(this.logs.keys().next().value as string);

    const end = Math.min(info.size, reader.maxBytes);
    if (this.split && this.split.threads > 1 && reader.packer && !log.skipping && end - log.offset >= 2 * this.split.partBytes) {
      await readSplit(this.split, fs, path, label, { ...reader, packer: reader.packer }, log, end, hooks);
    } else {
      await hooks.meanwhile?.();
      await readSteps(fs, path, label, reader, log, end);
    }
    const truncated = info.size > reader.maxBytes;
    const problems = truncated ? [...log.problems, problem(label, `only the first ${reader.maxBytes >> 20} MB read`)] : [...log.problems];
    // Not copied: a 123,800-row collection's two lists cost 6 ms a read copied, however little was appended.
    return { records: log.records as T[], problems, truncated };
  }
}
