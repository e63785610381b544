// A pool of read workers (read-worker.ts): local cells are found and read off the main thread, on every
// core. A cell always goes to the same worker, which remembers what its last read looked at.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { detectFormat, entryProblems, fileCellsIn, localFs, type CellRead, type ScorerPicks } from '../../runners';
import { problem, type FormatName, type Problem } from '../../shared/model';
import { knownByFolder, withoutTwins, type Found } from '../scan';
import type { BoardEntry, ComparisonTable } from '../../shared/board-comparisons';
import type { HeldBytes } from '../comparisons-json';
import type { LookedFiles } from './index-cache';
import { ReadWorkers, type Asked } from './read-workers';
import type { Reread, WorkerReply } from './worker-jobs';

/** The cells below a root, the folders that could not be listed, and the cells the cache holds unchanged. */
export interface Discovered {
  cells: Found[];
  problems: Problem[];
  unchanged: ReadonlySet<string>;
}

/** A worker for a cell no worker found: the same one each time. */
export function slot(dir: string, size: number): number {
  let hash = 0;
  for (let i = 0; i < dir.length; i++) hash = (hash * 31 + dir.charCodeAt(i)) | 0;
  return Math.abs(hash) % size;
}

export class ReaderPool {
  readonly threads: ReadWorkers;
  /** The worker that found each cell reads it, each time: it holds what the cell's reads looked at. */
  private readonly owner = new Map<string, number>();

  /** The scorers picked for Inspect logs' outcomes (settings), sent with each read. */
  scorers: () => ScorerPicks = () => ({});

  /** Every cell's units will be asked for (`cellwatch board`): each worker reads the cache's as soon as its discovery ends. */
  unitsAhead = false;

  /** `stallMs`: how long a job may go without a word from its worker before it fails and the worker is replaced. */
  constructor(size = Math.max(1, Math.min(4, availableParallelism())), stallMs?: number) {
    this.threads = new ReadWorkers(size, stallMs);
  }

  /**
   * The cells below a local runs root, down to three folders, and the folders that could not be listed:
   * the root's subfolders are shared out among the workers, a few at a time. `onFound` hears each few's
   * cells as they are found (those reached through a link come only in the total, once twins are known),
   * and what it asks of the workers meanwhile (their reads) goes before each one's next few: rows are
   * read while the rest of the root is still being searched.
   */
  async discover(
    root: string,
    known: ReadonlyMap<string, FormatName> = new Map(),
    cache: LookedFiles | null = null,
    onFound: (cells: Found[], unchanged: ReadonlySet<string>) => void | Promise<void> = () => undefined,
  ): Promise<Discovered> {
    const entries = await localFs.list(root);
    const files = new Set((entries ?? []).filter((e) => e.kind === 'file').map((e) => e.name));
    const rootProblems: Problem[] = [];
    const format = entries ? (known.get(root) ?? (await detectFormat(localFs, root, files, rootProblems))) : null;
    if (!entries || (format && !cache)) {
      return format ? { cells: [{ dir: root, format }], problems: [], unchanged: new Set() } : { cells: [], problems: [problem(root, 'cannot list folder (permission denied?)')], unchanged: new Set() };
    }
    // A root that is itself a cell is found by one worker, which holds what the cache says of it.
    const parts = Array.from({ length: this.threads.size }, () => [] as string[]);
    if (format) parts[0]?.push(root);
    else entries.filter((e) => e.kind === 'dir').forEach((e, i) => parts[i % parts.length]?.push(join(root, e.name)));
    // A job carries only what is known below its own folders.
    const knownIn = knownByFolder(root, known);
    const found = await Promise.all(
      parts.map(async (dirs, i) => {
        const all: Extract<WorkerReply, { type: 'discovered' }>[] = [];
        // One folder first, then twice as many each time: the first rows come soon, the jobs stay few.
        for (let start = 0, size = 1; start < dirs.length; start += size, size *= 2) {
          const some = dirs.slice(start, start + size);
          const job = { type: 'discover' as const, dirs: some, depth: format ? 0 : 1, known: some.flatMap((dir) => knownIn.get(dir) ?? []), cache, part: i };
          const reply = await this.threads.ask<Extract<WorkerReply, { type: 'discovered' }>>(i, job, (reply, finish) => reply.type === 'discovered' && finish(reply));
          reply.cells.forEach((cell) => this.owner.set(cell.dir, i));
          await onFound(
            reply.cells.filter((cell) => !cell.linked),
            new Set(reply.unchanged),
          );
          all.push(reply);
        }
        if (this.unitsAhead && cache) this.threads.tell(i, { type: 'unitsAhead' });
        return all;
      }),
    );
    const replies = found.flat();
    // Rollout collections in the root folder itself: cells that are files, beside the folders shared out.
    const direct: Found[] = format ? [] : await fileCellsIn(localFs, root, files, (path) => known.has(path));
    return {
      cells: (await withoutTwins(root, [...direct, ...replies.flatMap((f) => f.cells)])).sort((a, b) => a.dir.localeCompare(b.dir)),
      problems: [...entryProblems(root, entries), ...rootProblems, ...replies.flatMap((f) => f.problems)],
      unchanged: new Set([...replies.flatMap((f) => f.unchanged), ...(cache ? await this.restore(direct, cache) : [])]),
    };
  }

  /** Which of these cells, found here, the cache holds unchanged: each asked of the worker that reads it, which holds what the cache says of it. */
  private async restore(cells: Found[], cache: LookedFiles): Promise<string[]> {
    const unchanged = await Promise.all(
      this.byOwner(cells).map((part, i) => (part.length === 0 ? [] : this.threads.ask<string[]>(i, { type: 'restore', cells: part, cache, part: i }, (reply, finish) => reply.type === 'restored' && finish(reply.unchanged)))),
    );
    return unchanged.flat();
  }

  /** These cells (or their folders) by the worker that reads them. */
  private byOwner<C extends Found | string>(cells: C[]): C[][] {
    const parts = Array.from({ length: this.threads.size }, () => [] as C[]);
    for (const cell of cells) parts[this.ownerOf(typeof cell === 'string' ? cell : cell.dir)]?.push(cell);
    return parts;
  }

  /** Sends each worker the cells it owns, as one job; `onReply` hears every reply until it calls `finish`. */
  private async toOwners<C extends Found>(cells: C[], job: (part: C[]) => Asked, onReply: (reply: WorkerReply, finish: () => void) => void): Promise<void> {
    await Promise.all(this.byOwner(cells).map((part, i) => (part.length === 0 ? undefined : this.threads.ask<void>(i, job(part), (reply, finish) => onReply(reply, () => finish())))));
  }

  /**
   * Reads the cells, handing over the results in batches as they come; with `logs` (the default), every
   * event log of each cell is checked for malformed lines too, on from where the last check ended (but
   * those a watch saw no change to, where a cell says what changed).
   */
  read(cells: Reread[], onBatch: (reads: CellRead[]) => void, { logs = true }: { logs?: boolean } = {}): Promise<void> {
    return this.toOwners(cells, (part) => ({ type: 'read', cells: part, logs, scorers: this.scorers() }), (reply, finish) => {
      if (reply.type !== 'reads') return;
      if (reply.reads.length) onBatch(reply.reads);
      if (reply.done) finish();
    });
  }

  /**
   * The board's comparisons of these cells (shared/board-comparisons.ts), worked out by the least busy
   * worker. An entry of a `held` cell (local, by its path) is sent its units by the worker that reads the
   * cell, from its last read or the index cache (a cell of unknown units is read first): units never cross
   * this thread, which may be busy listing meanwhile. Other entries carry their own. With `json`, the
   * comparisons as `board --json` prints them go there as the worker writes them, all before the table.
   */
  async compare(entries: BoardEntry[], held: Found[], json?: HeldBytes): Promise<ComparisonTable> {
    const comparer = this.threads.leastBusy();
    const ports: MessagePort[] = [];
    const sending = this.byOwner(held).map((part, i) => {
      if (part.length === 0) return undefined;
      const { port1, port2 } = new MessageChannel();
      ports.push(port2);
      return this.threads.ask<void>(i, { type: 'unitsTo', cells: part, scorers: this.scorers(), port: port1 }, (reply, finish) => reply.type === 'unitsSent' && finish(), [port1]);
    });
    const compared = this.threads.ask<ComparisonTable>(
      comparer,
      { type: 'compare', entries, held: ports, json: json !== undefined },
      (reply, finish) => {
        if (reply.type === 'comparisonsJson') json?.add(reply.bytes);
        else if (reply.type === 'compared') finish(reply.table);
      },
      ports,
    );
    return (await Promise.all([compared, ...sending]))[0];
  }

  /** The malformed lines of each cell's event logs, in batches as they are checked. */
  logs(cells: Found[], onBatch: (logs: { dir: string; problems: Problem[] }[]) => void): Promise<void> {
    return this.toOwners(cells, (part) => ({ type: 'logs', cells: part }), (reply, finish) => {
      if (reply.type !== 'logged') return;
      if (reply.logs.length) onBatch(reply.logs);
      if (reply.done) finish();
    });
  }

  /** Of these cells, those whose files or folders changed since their last read: stats only, nothing parsed. */
  async sweep(dirs: string[]): Promise<string[]> {
    const dirty = await Promise.all(
      this.byOwner(dirs).map((part, i) =>
        part.length === 0
          ? []
          : this.threads.ask<string[]>(i, { type: 'sweep', dirs: part }, (reply, finish) => {
              if (reply.type === 'swept') finish(reply.dirty);
            }),
      ),
    );
    return dirty.flat();
  }

  /**
   * Each worker that reads some of these cells writes what it remembers of them, part `i` of `files`
   * (index-cache.ts; a part not written is read as none); returns the number of parts.
   */
  async saveLooked(dirs: string[], files: LookedFiles): Promise<number> {
    const parts = this.byOwner(dirs);
    await Promise.all(parts.map((part, i) => (part.length === 0 ? undefined : this.threads.ask<void>(i, { type: 'save', dirs: part, files, part: i }, (reply, finish) => reply.type === 'saved' && finish()))));
    return parts.length;
  }

  private ownerOf(dir: string): number {
    return this.owner.get(dir) ?? slot(dir, this.threads.size);
  }

  /** Cells that are gone: their workers drop what they remembered. */
  forget(dirs: string[]): void {
    dirs.forEach((dir) => this.owner.delete(dir));
    this.threads.tellAll({ type: 'forget', dirs });
  }

  close(): Promise<void> {
    return this.threads.close();
  }
}
