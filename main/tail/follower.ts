import { type Problem, problem } from '../../shared/model';
import { LineTailer, type TailChunk } from './lines';
import { localSource, type ByteSource } from './source';

const CHUNK = 1 << 20;
/** Errors after which the next poll simply tries again. */
const TRANSIENT = new Set(['ENOENT', 'HostUnavailableError', 'ReadTimeout']);
/** A read that has not answered by then (a channel that died under it) is given up; the next poll starts afresh. */
const READ_TIMEOUT_MS = 10_000;
const NEWLINE = 0x0a;
/** A watched file whose read failed for a passing reason (a host reconnecting) is read again this soon. */
const RETRY_MS = 1000;
/**
 * A watched file that cannot be read is tried again this often: the change that triggered the failed read
 * was used up by it, and no other may come.
 */
const RETRY_FAILED_MS = 5000;

/** Where to start following: the beginning, or the last `bytes` of the file (the first partial line dropped). */
export type FollowStart = { from: 'start' } | { from: 'end'; bytes: number } | { from: 'offset'; offset: number; line: number | null };

/**
 * Follows one JSONL file from any byte source: each poll reads the bytes appended since the last one
 * and hands complete records to `onChunk`. A file that shrank (truncated) or was replaced (new inode)
 * is said as a problem and read again from its start. It resumes from the offset it holds, so after a
 * dropped connection nothing is read twice and nothing is skipped.
 */
export class Follower {
  private tailer: LineTailer;
  private identity: number | null = null;
  private busy = false;
  private again = false;
  private started = false;
  private unwatchSource: (() => void) | undefined;
  /** The last read error reported, so a file that stays unreadable is said once. */
  private failure: string | null = null;
  /** Bumped when a read is given up: that read then changes nothing if it ever answers. */
  private generation = 0;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly source: ByteSource,
    readonly label: string,
    private readonly onChunk: (chunk: TailChunk) => void,
    private readonly start: FollowStart = { from: 'start' },
  ) {
    this.tailer = new LineTailer(label);
  }

  /** The byte offset of complete lines delivered so far. */
  get offset(): number {
    return this.tailer.offset;
  }

  /**
   * Polls on every change the OS reports for the file itself (inotify, FSEvents), the quickest signal
   * there is; a directory watcher's events arrive later. A file that does not exist yet is left to them.
   */
  watch(): void {
    if (!this.unwatchSource) this.unwatchSource = this.source.watch?.(() => void this.poll());
  }

  unwatch(): void {
    this.unwatchSource?.();
    this.unwatchSource = undefined;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  /** A watched file reads again after a failed read, one retry pending at a time. */
  private retry(ms: number): void {
    if (!this.unwatchSource || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.poll();
    }, ms).unref();
  }

  /** Reads what was appended; concurrent calls coalesce into one more read. */
  async poll(): Promise<void> {
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    try {
      do {
        this.again = false;
        const generation = this.generation;
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(Object.assign(new Error(`no answer in ${READ_TIMEOUT_MS / 1000} s`), { name: 'ReadTimeout' })), READ_TIMEOUT_MS);
        });
        try {
          await Promise.race([this.readNew(generation), deadline]);
        } catch (error) {
          if ((error as Error).name === 'ReadTimeout') this.generation++;
          throw error;
        } finally {
          clearTimeout(timer);
        }
      } while (this.again);
      this.failure = null;
    } catch (error) {
      // A file removed mid-read, or a host that is reconnecting: the next poll starts again from the offset held.
      const kind = (error as NodeJS.ErrnoException).code ?? (error as Error).name;
      if (TRANSIENT.has(kind)) {
        // Told of changes rather than polling, it would wait for the next change: it tries again itself.
        if (kind !== 'ENOENT') this.retry(RETRY_MS);
        return;
      }
      // Anything else (permission denied, an I/O error) is a problem of this file, said once.
      const message = `cannot be read: ${(error as Error).message}`;
      if (message !== this.failure) this.onChunk({ records: [], problems: [problem(this.label, message)] });
      this.failure = message;
      this.retry(RETRY_FAILED_MS);
    } finally {
      this.busy = false;
    }
  }

  /** Reads what was appended, handing over each part as it is read; a read given up (`generation` passed) stops. */
  private async readNew(generation: number): Promise<void> {
    const info = await this.source.stat();
    if (!info || generation !== this.generation) return;
    const problems: Problem[] = [];
    if (!this.started) {
      this.started = true;
      if (this.start.from === 'end' && info.size > this.start.bytes) await this.seekNearEnd(info.size - this.start.bytes);
      if (this.start.from === 'offset') {
        if (info.size >= this.start.offset) this.tailer = new LineTailer(this.label, { offset: this.start.offset, line: this.start.line });
        else problems.push(problem(this.label, `file was truncated (${info.size} bytes, had read ${this.start.offset}); reading it again from the start`));
      }
    } else if (this.identity !== null && info.identity !== null && info.identity !== this.identity) {
      problems.push(problem(this.label, 'file was replaced; reading it again from the start'));
      this.tailer.reset();
    } else if (info.size < this.tailer.readPosition) {
      problems.push(problem(this.label, `file was truncated (${info.size} bytes, had read ${this.tailer.readPosition}); reading it again from the start`));
      this.tailer.reset();
    }
    this.identity = info.identity;
    if (problems.length) this.onChunk({ records: [], problems });
    let position = this.tailer.readPosition;
    while (position < info.size) {
      const bytes = await this.source.read(position, Math.min(CHUNK, info.size - position));
      if (bytes.length === 0 || generation !== this.generation) break;
      position += bytes.length;
      const part = this.tailer.push(bytes);
      if (part.records.length || part.problems.length) this.onChunk(part);
    }
  }

  /** Starts at the first line that begins at or after `offset`; line numbers are then unknown. */
  private async seekNearEnd(offset: number): Promise<void> {
    let position = offset;
    for (;;) {
      const bytes = await this.source.read(position, 64 * 1024);
      if (bytes.length === 0) break;
      const newline = bytes.indexOf(NEWLINE);
      if (newline >= 0) {
        position += newline + 1;
        break;
      }
      position += bytes.length;
    }
    this.tailer = new LineTailer(this.label, { offset: position, line: null });
  }
}

/** A follower of a local file. */
export function localFollower(path: string, label: string, onChunk: (chunk: TailChunk) => void, start?: FollowStart): Follower {
  return new Follower(localSource(path), label, onChunk, start);
}
