import type { Problem } from '../../shared/model';
import { MAX_LINE_BYTES } from '../../runners/common/jsonl';
import { parseJson, TooDeepError } from '../../shared/json';

export interface TailRecord {
  /** 1-based line number in the file; null when the tail started mid-file without counting lines. */
  line: number | null;
  /** Byte offset just past this line's newline: where a reader that has this record resumes. */
  end: number;
  value: Record<string, unknown>;
}

export interface TailChunk {
  records: TailRecord[];
  problems: Problem[];
}

const NEWLINE = 0x0a;

/**
 * Turns appended bytes into complete JSONL records. It knows nothing of where the bytes come from (a
 * local file, an SSH channel): it holds the byte offset it has consumed, keeps a partial last line until
 * its newline arrives, and reports a malformed line with its file and line number while the lines after
 * it still count. Nothing is returned twice.
 */
export class LineTailer {
  /** Bytes of complete lines consumed so far: where the next read of the file starts. */
  offset: number;
  private line: number | null;
  private pending: Buffer = Buffer.alloc(0);
  /** Bytes of an over-long line being skipped, when its start was already dropped. */
  private skipping = false;

  constructor(
    readonly file: string,
    start: { offset: number; line: number | null } = { offset: 0, line: 1 },
  ) {
    this.offset = start.offset;
    this.line = start.line;
  }

  /** Bytes held back: a line whose newline has not arrived yet. */
  get held(): number {
    return this.pending.length;
  }

  /** Where a reader resumes: the consumed offset plus what is held. */
  get readPosition(): number {
    return this.offset + this.pending.length;
  }

  push(bytes: Buffer): TailChunk {
    const records: TailRecord[] = [];
    const problems: Problem[] = [];
    const where = (lineStart: number): Pick<Problem, 'file' | 'line'> =>
      this.line === null ? { file: `${this.file} at byte ${lineStart}` } : { file: this.file, line: this.line };
    let data = this.pending.length ? Buffer.concat([this.pending, bytes]) : bytes;
    let start = 0;
    for (;;) {
      const end = data.indexOf(NEWLINE, start);
      if (end < 0) break;
      const raw = data.subarray(start, end);
      const lineStart = this.offset;
      this.offset += raw.length + 1;
      if (this.skipping) {
        problems.push({ ...where(lineStart), severity: 'error', message: `line longer than ${MAX_LINE_BYTES >> 20} MB; skipped` });
        this.skipping = false;
      } else {
        const text = raw.toString('utf8').trim();
        if (text) {
          try {
            const value: unknown = parseJson(text);
            if (value !== null && typeof value === 'object' && !Array.isArray(value)) records.push({ line: this.line, end: this.offset, value: value as Record<string, unknown> });
            else problems.push({ ...where(lineStart), severity: 'error', message: 'not a JSON object; skipped' });
          } catch (error) {
            problems.push({ ...where(lineStart), severity: 'error', message: error instanceof TooDeepError ? error.message : `malformed JSON (${(error as Error).message}); skipped` });
          }
        }
      }
      if (this.line !== null) this.line++;
      start = end + 1;
    }
    data = data.subarray(start);
    if (data.length > MAX_LINE_BYTES) {
      // Too long to hold: drop what we have and report the line once its newline comes.
      this.offset += data.length;
      this.skipping = true;
      data = Buffer.alloc(0);
    }
    this.pending = Buffer.from(data);
    return { records, problems };
  }

  /** Starts over from the beginning of the file (it was truncated or replaced). */
  reset(): void {
    this.offset = 0;
    this.line = 1;
    this.pending = Buffer.alloc(0);
    this.skipping = false;
  }
}
