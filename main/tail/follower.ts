import { watch, type FSWatcher } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { Problem } from '../../shared/model';
import { LineTailer, type TailChunk } from './lines';

const CHUNK = 1 << 20;
const NEWLINE = 0x0a;

/** Where to start following: the beginning, or the last `bytes` of the file (the first partial line dropped). */
export type FollowStart = { from: 'start' } | { from: 'end'; bytes: number };

/**
 * Follows one local JSONL file: each poll reads the bytes appended since the last one and hands
 * complete records to `onChunk`. A file that shrank (truncated) or was replaced (new inode) is said as
 * a problem and read again from its start.
 */
export class LocalFollower {
  private tailer: LineTailer;
  private inode: number | undefined;
  private busy = false;
  private again = false;
  private started = false;
  private watcher: FSWatcher | undefined;

  constructor(
    readonly path: string,
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
    if (this.watcher) return;
    try {
      this.watcher = watch(this.path, { persistent: false }, () => void this.poll());
      this.watcher.on('error', () => this.unwatch());
    } catch {
      this.watcher = undefined;
    }
  }

  unwatch(): void {
    this.watcher?.close();
    this.watcher = undefined;
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
        await this.readNew();
      } while (this.again);
    } finally {
      this.busy = false;
    }
  }

  private async readNew(): Promise<void> {
    const info = await stat(this.path).catch(() => null);
    if (!info?.isFile()) return;
    const problems: Problem[] = [];
    if (!this.started) {
      this.started = true;
      if (this.start.from === 'end' && info.size > this.start.bytes) await this.seekNearEnd(info.size - this.start.bytes);
    } else if (this.inode !== undefined && info.ino !== this.inode) {
      problems.push({ file: this.label, message: 'file was replaced; reading it again from the start' });
      this.tailer.reset();
    } else if (info.size < this.tailer.readPosition) {
      problems.push({ file: this.label, message: `file was truncated (${info.size} bytes, had read ${this.tailer.readPosition}); reading it again from the start` });
      this.tailer.reset();
    }
    this.inode = info.ino;
    const chunk: TailChunk = { records: [], problems };
    if (info.size > this.tailer.readPosition) {
      const handle = await open(this.path, 'r');
      try {
        const buffer = Buffer.alloc(CHUNK);
        let position = this.tailer.readPosition;
        while (position < info.size) {
          const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK, info.size - position), position);
          if (bytesRead === 0) break;
          position += bytesRead;
          const part = this.tailer.push(buffer.subarray(0, bytesRead));
          chunk.records.push(...part.records);
          chunk.problems.push(...part.problems);
        }
      } finally {
        await handle.close();
      }
    }
    if (chunk.records.length || chunk.problems.length) this.onChunk(chunk);
  }

  /** Starts at the first line that begins at or after `offset`; line numbers are then unknown. */
  private async seekNearEnd(offset: number): Promise<void> {
    const handle = await open(this.path, 'r');
    try {
      const buffer = Buffer.alloc(64 * 1024);
      let position = offset;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
        if (bytesRead === 0) break;
        const newline = buffer.subarray(0, bytesRead).indexOf(NEWLINE);
        if (newline >= 0) {
          position += newline + 1;
          break;
        }
        position += bytesRead;
      }
      this.tailer = new LineTailer(this.label, { offset: position, line: null });
    } finally {
      await handle.close();
    }
  }
}
