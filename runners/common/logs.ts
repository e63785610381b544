import { problem, type Problem } from '../../shared/model';
import type { CellFs } from './fs';
import { parseJsonl } from './jsonl';

/** A log's first read looks at most at its last this-many bytes; later reads go on from where they were. */
const FIRST_READ_BYTES = 64 * 1024 * 1024;
/** Bytes read per step: a log grown by more is read in several. */
const STEP_BYTES = 16 * 1024 * 1024;
/** Problems kept per log, the newest. */
const MAX_PROBLEMS = 200;

export interface LogState {
  /** Bytes of complete lines checked. */
  offset: number;
  /** The next line's number; null when the first read started past the file's start. */
  line: number | null;
  problems: Problem[];
}

/**
 * The malformed lines of every event log of a cell, checked once each: a log is read on from the byte
 * it had reached, so an unchanged log costs one stat (none where a watch says it is unchanged) and a grown
 * one only its new bytes. A log that shrank is checked again from its start.
 */
export class LogCache {
  private readonly logs = new Map<string, LogState>();

  constructor(private readonly fs: CellFs) {}

  /**
   * The problems of the log at `path`, named `label`, as of now; with `unchanged` (a watch saw nothing
   * happen to it since its last check), as of its last check, without looking at it.
   */
  async problems(path: string, label: string, unchanged = false): Promise<Problem[]> {
    const known = unchanged ? this.logs.get(path) : undefined;
    if (known) return known.problems;
    const info = await this.fs.stat(path);
    if (!info || info.kind !== 'file') {
      this.logs.delete(path);
      return [];
    }
    let state = this.logs.get(path);
    if (!state || info.size < state.offset) {
      const start = Math.max(0, info.size - FIRST_READ_BYTES);
      state = { offset: start, line: start === 0 ? 1 : null, problems: [] };
      this.logs.set(path, state);
      // Started past the start: skip to the first whole line.
      if (start > 0) {
        const head = await this.fs.readFrom(path, start, 64 * 1024);
        const newline = head?.text.indexOf('\n') ?? -1;
        state.offset = newline < 0 ? info.size : start + Buffer.byteLength(head?.text.slice(0, newline + 1) ?? '');
      }
    }
    while (state.offset < info.size) {
      const chunk = await this.fs.readFrom(path, state.offset, STEP_BYTES);
      if (!chunk || chunk.text === '') break;
      const parsed = parseJsonl(chunk.text, label, state.line ?? 0);
      if (parsed.consumed === 0) {
        // A partial last line waits for its newline, unless it alone is longer than a step: skip past it.
        if (!chunk.truncated) break;
        state.problems.push(problem(label, `a line longer than ${STEP_BYTES >> 20} MB at byte ${state.offset}; skipped`));
        state.offset += Buffer.byteLength(chunk.text);
        state.line = null;
        continue;
      }
      const found = state.line === null ? parsed.problems.map((p) => problem(label, `${p.message} (at byte ${state?.offset})`)) : parsed.problems;
      state.problems = [...state.problems, ...found].slice(-MAX_PROBLEMS);
      state.offset += parsed.consumed;
      if (state.line !== null) state.line += parsed.lines;
    }
    return state.problems;
  }

  /** Where each log was checked to, to be restored by `restore` in another process. */
  saved(): IterableIterator<[string, LogState]> {
    return this.logs.entries();
  }

  restore(logs: [string, LogState][]): void {
    for (const [path, state] of logs) this.logs.set(path, state);
  }

  forget(prefix: string): void {
    for (const path of this.logs.keys()) if (path.startsWith(prefix)) this.logs.delete(path);
  }
}
