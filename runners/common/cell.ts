import { basename, dirname, join } from 'node:path';
import { type Cell, type CellLabels, type FormatName, type Problem, problem } from '../../shared/model';
import { cellId } from '../../shared/address';
import { boardByName } from '../../shared/names';
import { isRecent, type ReadContext } from '../types';
import { shapeProblems, type JsonObject, type Shape } from './json';
import type { JsonlRecord } from './jsonl';
import { JsonlCache } from './jsonl-cache';
import type { LineReader } from './line-steps';
import type { LogHooks } from './split-lines';
import { entryProblems, MORE_ENTRIES } from './fs';
import { append } from '../../shared/arrays';

export const NO_LABELS: CellLabels = { harness: null, model: null, condition: null, effort: null };

/** The fields every adapter fills the same way; budget, episodes and state are the adapter's. */
export function baseCell(dir: string, format: FormatName, ctx: Pick<ReadContext, 'host'>, name = basename(dir)): Cell {
  // A run launched from a UI is in a ui_ folder even where its runner names the cell otherwise (bigym: the task).
  const byName = boardByName(basename(dirname(dir)).startsWith('ui_') ? basename(dirname(dir)) : name);
  return {
    id: cellId(ctx.host, dir),
    host: ctx.host,
    path: dir,
    format,
    name,
    board: byName?.board ?? null,
    board_reasons: byName ? [byName.reason] : [],
    state: 'stale',
    budget: { unit: 'episodes', used: 0, total: null },
    episodes: { planned: null, ended: 0, scored: 0, excluded: 0, successes: 0 },
    success_rate: null,
    tokens: { input: null, cached_input: null, output: null, reasoning: null },
    cost_usd_estimate: null,
    cost_usd_billed: null,
    cost_source: null,
    problems: [],
  };
}

/**
 * The cell's place on its format's board, for a format that has one: `on` with no departures from the
 * board's rule, else `off` with each; a ui_ or nonstd_ run stays where its name put it.
 */
export function judgeBoard(cell: Cell, departures: string[]): void {
  if (cell.board === 'ui' || cell.board === 'nonstd') return;
  cell.board = departures.length ? 'off' : 'on';
  cell.board_reasons = departures;
}

/** Reads a cell's files while remembering the newest modification time seen and every problem met. */
export class CellReading {
  changedAt: number | null = null;
  readonly problems: Problem[] = [];

  constructor(
    readonly dir: string,
    readonly ctx: ReadContext,
  ) {}

  path(relative: string): string {
    return join(this.dir, relative);
  }

  private touch(mtimeMs: number | undefined): void {
    if (mtimeMs !== undefined && (this.changedAt === null || mtimeMs > this.changedAt)) this.changedAt = mtimeMs;
  }

  async stat(relative: string) {
    const info = await this.ctx.fs.stat(this.path(relative));
    this.touch(info?.mtimeMs);
    return info;
  }

  /** A JSON file's object; each field of `shape` it holds with another type is a problem (and reads as absent). */
  async json(relative: string, shape: Shape = {}): Promise<JsonObject | null> {
    const read = await this.ctx.json.read(this.path(relative), relative);
    if (read.problem) this.problems.push(read.problem);
    if (!read.value) return null;
    await this.stat(relative);
    append(this.problems, shapeProblems(read.value, shape, relative));
    return read.value;
  }

  async text(relative: string, maxBytes: number): Promise<string | null> {
    const file = await this.ctx.fs.read(this.path(relative), maxBytes);
    if (file) await this.stat(relative);
    return file?.text ?? null;
  }

  /**
   * The complete lines of a JSONL log; malformed lines become problems, a partial last line waits. With
   * the context's cache, a log is read on from where its last read ended. A `reader` makes each line
   * something else than its parsed object (a summary of a row too big to keep whole). The list is the
   * cache's own, read on in place: never changed here. `hooks` are what is done during a long read split
   * among threads (JsonlCache.read): `meanwhile` is done in any case.
   */
  async jsonl(relative: string): Promise<readonly JsonlRecord[]>;
  async jsonl<T>(relative: string, reader: LineReader<T>, hooks?: LogHooks<T>): Promise<readonly T[]>;
  async jsonl<T>(relative: string, reader?: LineReader<T>, hooks: LogHooks<T> = {}): Promise<readonly (T | JsonlRecord)[]> {
    if (!(await this.stat(relative))) {
      await hooks.meanwhile?.();
      return [];
    }
    const log = await (this.ctx.jsonl ?? new JsonlCache(0)).read(this.ctx.fs, this.path(relative), relative, reader, hooks);
    append(this.problems, log.problems);
    return log.records;
  }

  /** A folder's entries; a file where the folder belongs is a problem, a missing folder is not. */
  async list(relative: string) {
    const entries = await this.ctx.fs.list(this.path(relative));
    if (entries) {
      append(this.problems, entryProblems(relative, entries));
      return entries.filter((entry) => entry !== MORE_ENTRIES);
    }
    const info = await this.ctx.fs.stat(this.path(relative));
    if (info && info.kind !== 'dir') this.problems.push(problem(relative, `${relative} is not a folder`));
    return [];
  }

  recent(): boolean {
    return isRecent(this.changedAt, this.ctx.now);
  }
}

