// The cells of one local runs root, kept current by change rather than by rescanning: an OS watcher marks
// cells dirty and only those are read again; a slow stat-only sweep catches what a watcher misses.
import { problem, type CellsDelta, type CellSummary, type FormatName, type Problem, type RootState, type RootStatus } from '../../shared/model';
import { localFs, type CellRead } from '../../runners';
import { quietCells } from './aging';
import { rootTrouble } from '../scan';
import { CellTable } from './cell-table';
import { firstScan } from './first-scan';
import { IndexCache, picksKey } from './index-cache';
import { AGE_CHECK_MS, MISSING_RETRY_MS, SETTLE_MS, SWEEP_MS, SWEEP_UNWATCHED_MS, type IndexOptions } from './index-options';
import { PAUSE_PER_LOCAL_READ, Rereads } from '../quiet';
import { ChangedCells } from '../changes';
import type { Found } from '../scan';
import type { ReaderPool } from './pool';
import { cellHolding, watchRoot, watchProblem, type RootWatcher } from './root-watcher';
import type { RootIndex } from './root-index';

export class LocalIndex implements RootIndex {
  private state: RootState = 'scanning';
  private rootProblems: Problem[] = [];
  private progress: RootStatus['progress'] = null;
  private readonly table: CellTable;
  private watcher: RootWatcher | undefined;
  /** The cells to read again, each with what the watcher saw change in it. */
  private readonly dirty = new ChangedCells();
  private rediscover = false;
  private sweeper: NodeJS.Timeout | undefined;
  private working: Promise<void> = Promise.resolve();
  /** The cells the watcher says changed, read at the pace of what a read costs (a sweep it waits for not counted). */
  private readonly changes = new Rereads(() => this.update(), SETTLE_MS, PAUSE_PER_LOCAL_READ, () => this.working);
  private closed = false;
  private watchProblem: Problem | undefined;
  private cache: IndexCache | null = null;

  constructor(
    readonly root: string,
    private readonly pool: ReaderPool,
    private readonly onDelta: (delta: CellsDelta) => void,
    private readonly onStatus: () => void,
    private readonly options: IndexOptions = {},
  ) {
    this.table = new CellTable(root);
  }

  status(source: RootStatus['source']): Omit<RootStatus, 'limit'> {
    const problems = this.watchProblem ? [...this.rootProblems, this.watchProblem] : this.rootProblems;
    return { path: this.root, source, state: this.state, cellCount: this.table.cells.size, problems, progress: this.progress };
  }

  list(): CellSummary[] {
    return this.table.list();
  }

  /** The first scan: cells reach the window in batches as they are read, with progress. */
  async start(): Promise<void> {
    let stalled = false;
    let read: Found[] = [];
    const failed = (error: Error) => ((stalled = true), { state: 'unreadable' as const, problems: [problem(this.root, `could not be read: ${error.message}`)] });
    const trouble = (await rootTrouble(localFs, this.root)) ?? (await this.firstScan().then((cells) => ((read = cells), null), failed));
    if (trouble) {
      this.state = trouble.state;
      this.rootProblems = trouble.problems;
      this.progress = null;
      this.onStatus();
      // A root that appears later (a run about to make it) is scanned then: one stat every few seconds. A
      // stalled read (a hung network disk) leaves a worker stuck each time: tried again less often.
      this.scheduleSweep(this.options.sweepMs ?? (stalled ? SWEEP_UNWATCHED_MS : MISSING_RETRY_MS));
      return;
    }
    this.state = 'ok';
    this.progress = null;
    this.onStatus();
    if (this.closed) return;
    if (!this.options.logsWithRows) await this.checkLogs(read);
    await this.saveCache();
    if (this.closed) return;
    if (this.options.watch !== false) {
      await this.startWatching();
      if (this.closed) return;
      // What changed while the watcher was being set up (cells a live run just made) is caught up once.
      await this.sweep();
    }
    this.scheduleSweep(this.options.sweepMs ?? (this.watcher ? SWEEP_MS : SWEEP_UNWATCHED_MS));
  }

  /** Finds the root's cells and reads their rows (unchanged ones from the cache), handing them over in batches. */
  private async firstScan(): Promise<Found[]> {
    this.cache = this.options.cacheDir ? await IndexCache.open(this.options.cacheDir, this.root, picksKey(this.pool.scorers())) : null;
    const onRows = (rows: CellSummary[]) => {
      this.table.add(rows);
      this.onDelta({ root: this.root, added: rows, changed: [], removed: [] });
    };
    const { problems, read } = await firstScan(
      this.pool,
      this.root,
      this.cache,
      onRows,
      (done, total, searching) => {
        this.progress = { read: done, total, searching };
        this.onStatus();
      },
      this.options.logsWithRows,
    );
    this.rootProblems = problems;
    // Only what was read is news to the cache: a first scan that read nothing leaves it as it is.
    this.table.unsaved = read.length > 0;
    return read;
  }

  /** Keeps what the index knows for the next start; a cache that cannot be written only costs a full read then. */
  private async saveCache(): Promise<void> {
    if (!this.table.unsaved) return;
    this.table.unsaved = false;
    await this.cache?.save(this.table.cells.values(), (files) => this.pool.saveLooked([...this.table.cells.keys()], files), picksKey(this.pool.scorers())).catch(() => undefined);
  }

  /** The malformed lines of each cell's event logs, found after the rows are out: rows that gain problems change. */
  private async checkLogs(cells: { dir: string; format: FormatName }[]): Promise<void> {
    await this.pool.logs(cells, (found) => {
      const changed = this.table.addLogProblems(found);
      if (changed.length) this.onDelta({ root: this.root, added: [], changed, removed: [] });
    });
  }

  private async startWatching(): Promise<void> {
    const watcher = await watchRoot(this.root, (path) => cellHolding(this.table.cells, this.root, path), (path) => this.changed(path), (error) => this.watchFailed(error), this.options.osWatch);
    // Closed while the watcher was being set up: it must not keep the process alive.
    if (this.closed) watcher.close();
    else if (!this.watchProblem) this.watcher = watcher;
  }

  /** The OS could not watch everything (the inotify limit, most often): the sweep takes over, said once. */
  private watchFailed(error: NodeJS.ErrnoException): void {
    this.watchProblem = watchProblem(this.root, error, SWEEP_UNWATCHED_MS / 1000);
    this.watcher?.close();
    this.watcher = undefined;
    this.scheduleSweep(this.options.sweepMs ?? SWEEP_UNWATCHED_MS);
    this.onStatus();
  }

  private changed(path: string): void {
    const cell = cellHolding(this.table.cells, this.root, path);
    if (cell) this.dirty.mark(cell.dir, path);
    // Outside any known cell: a new cell (or a removed one) somewhere above.
    else this.rediscover = true;
    this.changes.ask();
  }

  reread(cellPath: string): void {
    if (!this.table.cells.has(cellPath)) return;
    this.dirty.mark(cellPath);
    void this.update();
  }

  /** One timer: the stat sweep every `every`; between sweeps, running cells gone quiet (their state changes with time alone). */
  private scheduleSweep(every: number): void {
    clearInterval(this.sweeper);
    if (this.closed) return;
    let swept = Date.now();
    this.sweeper = setInterval(() => {
      const sweep = Date.now() - swept >= every;
      if (sweep) swept = Date.now();
      else quietCells(this.table.cells.values(), Date.now()).forEach((dir) => this.dirty.mark(dir));
      void (sweep ? this.sweep() : this.dirty.size ? this.update() : Promise.resolve()).catch((error: Error) => this.failed(error));
    }, Math.min(every, this.options.ageCheckMs ?? AGE_CHECK_MS));
    this.sweeper.unref();
  }

  /** Finds what changed by stats alone: cells whose files changed, and cells added or removed. */
  async sweep(): Promise<void> {
    if (this.state !== 'ok') {
      await this.restart();
      return;
    }
    for (const dir of await this.pool.sweep([...this.table.cells.keys()])) this.dirty.mark(dir);
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
    this.working = this.working.then(() => this.apply()).catch((error: Error) => this.failed(error));
    return this.working;
  }

  private async apply(): Promise<void> {
    if (this.closed) return;
    const delta: CellsDelta = { root: this.root, added: [], changed: [], removed: [] };
    if (this.rediscover) {
      this.rediscover = false;
      const known = new Map([...this.table.cells].map(([dir, c]) => [dir, c.format]));
      const { cells, problems } = await this.pool.discover(this.root, known);
      this.rootProblems = problems;
      const now = new Set(cells.map((c) => c.dir));
      for (const dir of this.table.cells.keys()) if (!now.has(dir)) this.drop(dir, delta);
      const fresh = cells.filter((c) => !this.table.cells.has(c.dir));
      await this.pool.read(fresh, (reads) => reads.forEach((read) => this.keep(read, delta)));
    }
    const dirty = this.dirty.take().flatMap(([dir, changed]) => {
      const cell = this.table.cells.get(dir);
      return cell ? [{ dir, format: cell.format, ...(changed ? { changed } : {}) }] : [];
    });
    await this.pool.read(dirty, (reads) => reads.forEach((read) => this.keep(read, delta)));
    if (delta.added.length || delta.changed.length || delta.removed.length) {
      this.onDelta(delta);
      this.onStatus();
    }
  }

  /** Reading changes failed (a read worker died, the disk stopped answering): said on the root, tried again later. */
  private failed(error: Error): void {
    this.rootProblems = [...this.rootProblems.filter((p) => !p.message.startsWith('could not read changes')), problem(this.root, `could not read changes: ${error.message}`)];
    this.onStatus();
  }

  private keep(read: CellRead, delta: CellsDelta): void {
    // A cell whose folder vanished between the event and the read is removed.
    if (read.gone) this.drop(read.cell.path, delta);
    else this.table.keep(read, delta);
  }

  private drop(dir: string, delta: CellsDelta): void {
    if (this.table.drop(dir, delta)) this.pool.forget([dir]);
  }

  /** Finds a cell just made here (a launched run's) at once. */
  async refresh(): Promise<void> {
    this.rediscover = true;
    await this.update();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    this.watcher?.close();
    this.watcher = undefined;
    await this.changes.close();
    await this.working;
    await this.saveCache();
  }
}
