// The cells of one local runs root, kept current by change rather than by rescanning: an OS watcher marks
// cells dirty and only those are read again; a slow stat-only sweep catches what a watcher misses.
import { watch, type FSWatcher } from 'chokidar';
import { dirname, relative, sep } from 'node:path';
import { problem, type CellsDelta, type CellSummary, type FormatName, type Problem, type RootState, type RootStatus } from '../../shared/model';
import { ADAPTERS, localFs, type CellRead } from '../../runners';
import { mergeProblems, summaryOf } from '../../runners/read';
import { MAX_DEPTH, rootTrouble } from '../scan';
import type { ReaderPool } from './pool';

/** How long changes are gathered before the cells they touch are read. */
const SETTLE_MS = 40;
/**
 * The safety sweep: a stat of everything each cell's last read looked at, nothing parsed. With the OS
 * watcher on it only backs it up (network file systems miss events); without, it is what finds changes.
 * A sweep of 10,000 cells costs about a second of a worker's time.
 */
const SWEEP_MS = 5 * 60_000;
const SWEEP_UNWATCHED_MS = 30_000;
/** A missing or unreadable root is looked at again this often. */
const MISSING_RETRY_MS = 2000;
/** Rows reach the window at most this often during the first scan. */
const FLUSH_MS = 100;

export interface IndexOptions {
  /** Watch with the OS (default true); off, only the sweep finds changes. */
  watch?: boolean;
  sweepMs?: number;
}

export class LocalIndex {
  private state: RootState = 'scanning';
  private rootProblems: Problem[] = [];
  private progress: RootStatus['progress'] = null;
  private readonly cells = new Map<string, CellSummary>();
  private watcher: FSWatcher | undefined;
  private readonly dirty = new Set<string>();
  private rediscover = false;
  private settle: NodeJS.Timeout | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  private working: Promise<void> = Promise.resolve();
  private closed = false;
  private watchProblem: Problem | undefined;

  constructor(
    readonly root: string,
    private readonly pool: ReaderPool,
    private readonly onDelta: (delta: CellsDelta) => void,
    private readonly onStatus: () => void,
    private readonly options: IndexOptions = {},
  ) {}

  status(source: RootStatus['source']): RootStatus {
    return {
      path: this.root,
      source,
      state: this.state,
      cellCount: this.cells.size,
      problems: this.watchProblem ? [...this.rootProblems, this.watchProblem] : this.rootProblems,
      progress: this.progress,
    };
  }

  list(): CellSummary[] {
    return [...this.cells.values()].sort((a, b) => a.path.localeCompare(b.path));
  }

  /** The first scan: cells reach the window in batches as they are read, with progress. */
  async start(): Promise<void> {
    const trouble = await rootTrouble(localFs, this.root);
    if (trouble) {
      this.state = trouble.state;
      this.rootProblems = trouble.problems;
      this.onStatus();
      // A root that appears later (a run about to make it) is scanned then: one stat every few seconds.
      this.scheduleSweep(this.options.sweepMs ?? MISSING_RETRY_MS);
      return;
    }
    const { cells, problems } = await this.pool.discover(this.root);
    this.rootProblems = problems;
    this.progress = { read: 0, total: cells.length };
    this.onStatus();
    let pending: CellSummary[] = [];
    let last = Date.now();
    const flush = () => {
      if (pending.length) this.onDelta({ root: this.root, added: pending, changed: [], removed: [] });
      pending = [];
      last = Date.now();
      this.onStatus();
    };
    // Rows first; the event logs' malformed lines are found after, in the background.
    await this.pool.read(
      cells,
      (reads) => {
        for (const read of reads) {
          const summary = summaryOf(read, this.root);
          this.cells.set(summary.path, summary);
          pending.push(summary);
        }
        if (this.progress) this.progress.read += reads.length;
        if (Date.now() - last >= FLUSH_MS) flush();
      },
      false,
    );
    this.state = 'ok';
    this.progress = null;
    flush();
    await this.checkLogs(cells);
    if (this.options.watch !== false) {
      await this.startWatching();
      // What changed while the watcher was being set up (cells a live run just made) is caught up once.
      await this.sweep();
    }
    this.scheduleSweep(this.options.sweepMs ?? (this.watcher ? SWEEP_MS : SWEEP_UNWATCHED_MS));
  }

  /** The malformed lines of each cell's event logs, found after the rows are out: rows that gain problems change. */
  private async checkLogs(cells: { dir: string; format: FormatName }[]): Promise<void> {
    await this.pool.logs(cells, (found) => {
      const changed: CellSummary[] = [];
      for (const { dir, problems } of found) {
        const cell = this.cells.get(dir);
        const merged = cell && mergeProblems(cell.problems, problems);
        if (!cell || !merged || merged === cell.problems) continue;
        const updated = { ...cell, problems: merged };
        this.cells.set(dir, updated);
        changed.push(updated);
      }
      if (changed.length) this.onDelta({ root: this.root, added: [], changed, removed: [] });
    });
  }

  /** The cell folder holding `path`, when it is in a known cell. */
  private cellOf(path: string): string | null {
    for (let dir = path; dir.length >= this.root.length; dir = dirname(dir)) {
      if (this.cells.has(dir)) return dir;
      if (dir === dirname(dir)) break;
    }
    return null;
  }

  /** Paths whose changes never change a row: a format's frames and media. */
  private quiet(path: string): boolean {
    const cell = this.cellOf(path);
    if (!cell) return false;
    const format = this.cells.get(cell)?.format as FormatName;
    return ADAPTERS[format].capabilities.quiet?.test(relative(cell, path).split(sep).join('/')) ?? false;
  }

  private async startWatching(): Promise<void> {
    const watcher = watch(this.root, {
      ignoreInitial: true,
      // root/…/cell (up to 3) and inside a cell its logs, two folders down.
      depth: MAX_DEPTH + 2,
      ignored: (path: string) => path !== this.root && this.quiet(path),
    });
    this.watcher = watcher;
    watcher.on('all', (_event, path) => this.changed(path));
    watcher.on('error', (error) => this.watchFailed(error as NodeJS.ErrnoException));
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  }

  /** The OS could not watch everything (the inotify limit, most often): the sweep takes over, said once. */
  private watchFailed(error: NodeJS.ErrnoException): void {
    if (this.watchProblem) return;
    const limit = error.code === 'ENOSPC' || error.code === 'EMFILE';
    this.watchProblem = limit
      ? problem(this.root, `too many folders to watch: the system's limit fs.inotify.max_user_watches is reached; changes are found by a sweep every ${SWEEP_UNWATCHED_MS / 1000} s instead`, {
          severity: 'warning',
          tip: 'raise it: sudo sysctl fs.inotify.max_user_watches=524288',
        })
      : problem(this.root, `watching stopped (${error.message}); changes are found by a sweep every ${SWEEP_UNWATCHED_MS / 1000} s instead`, { severity: 'warning' });
    void this.watcher?.close();
    this.watcher = undefined;
    this.scheduleSweep(this.options.sweepMs ?? SWEEP_UNWATCHED_MS);
    this.onStatus();
  }

  private changed(path: string): void {
    const cell = this.cellOf(path);
    if (cell) this.dirty.add(cell);
    // Outside any known cell: a new cell (or a removed one) somewhere above.
    else this.rediscover = true;
    clearTimeout(this.settle);
    this.settle = setTimeout(() => void this.update(), SETTLE_MS);
  }

  private scheduleSweep(every: number): void {
    clearInterval(this.sweeper);
    this.sweeper = setInterval(() => void this.sweep(), every);
    this.sweeper.unref();
  }

  /** Finds what changed by stats alone: cells whose files changed, and cells added or removed. */
  async sweep(): Promise<void> {
    if (this.state !== 'ok') {
      await this.restart();
      return;
    }
    for (const dir of await this.pool.sweep([...this.cells.keys()])) this.dirty.add(dir);
    this.rediscover = true;
    await this.update();
  }

  /** A root that was missing or unreadable: scanned from the start once it can be. */
  private async restart(): Promise<void> {
    if ((await rootTrouble(localFs, this.root)) === null && !this.closed) {
      clearInterval(this.sweeper);
      await this.start();
    }
  }

  /** Reads what is dirty, finds new and removed cells, and sends the rows that changed. One update at a time. */
  update(): Promise<void> {
    this.working = this.working.then(() => this.apply());
    return this.working;
  }

  private async apply(): Promise<void> {
    if (this.closed) return;
    const delta: CellsDelta = { root: this.root, added: [], changed: [], removed: [] };
    if (this.rediscover) {
      this.rediscover = false;
      const known = new Map([...this.cells].map(([dir, c]) => [dir, c.format]));
      const { cells, problems } = await this.pool.discover(this.root, known);
      this.rootProblems = problems;
      const now = new Set(cells.map((c) => c.dir));
      for (const dir of this.cells.keys()) if (!now.has(dir)) this.drop(dir, delta);
      const fresh = cells.filter((c) => !this.cells.has(c.dir));
      await this.pool.read(fresh, (reads) => reads.forEach((read) => this.keep(read, delta)));
    }
    const dirty = [...this.dirty].filter((dir) => this.cells.has(dir));
    this.dirty.clear();
    if (dirty.length) {
      const formats = dirty.map((dir) => ({ dir, format: this.cells.get(dir)?.format as FormatName }));
      await this.pool.read(formats, (reads) => reads.forEach((read) => this.keep(read, delta)));
    }
    if (delta.added.length || delta.changed.length || delta.removed.length) {
      this.onDelta(delta);
      this.onStatus();
    }
  }

  private keep(read: CellRead, delta: CellsDelta): void {
    // A cell whose folder vanished between the event and the read is removed.
    if (read.gone) {
      this.drop(read.cell.path, delta);
      return;
    }
    const summary = summaryOf(read, this.root);
    const before = this.cells.get(summary.path);
    this.cells.set(summary.path, summary);
    if (!before) delta.added.push(summary);
    else if (JSON.stringify(before) !== JSON.stringify(summary)) delta.changed.push(summary);
  }

  private drop(dir: string, delta: CellsDelta): void {
    const cell = this.cells.get(dir);
    if (!cell) return;
    this.cells.delete(dir);
    delta.removed.push(cell.id);
    this.pool.forget([dir]);
  }

  /** Finds a cell just made here (a launched run's) at once. */
  async refresh(): Promise<void> {
    this.rediscover = true;
    await this.update();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.settle);
    clearInterval(this.sweeper);
    await this.watcher?.close();
    await this.working;
  }
}
