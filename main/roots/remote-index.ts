// The cells of a runs root on an SSH host, kept up to date by the host's change feed: a change rereads
// only the cell it concerns, over the host's one connection; a whole rescan happens at the start, when
// the feed (re)starts, and every few seconds while no feed runs. Changes go out as deltas. Each cell is
// read by an open-cell worker (remote-cell.ts), which asks this thread for its files: a big or hostile
// cell never holds up the thread that serves the window.
import { posix } from 'node:path';
import { problem, type Problem, type CellsDelta, type CellSummary, type FormatName, type RootStatus } from '../../shared/model';
import { DETECT_FILES } from '../../runners/detect';
import type { CellFs } from '../../runners';
import { ADAPTERS } from '../../runners';
import type { HostContext } from '../place/context';
import { mapLimited } from '../concurrency';
import { findCells, REMOTE_DEPTH, rootTrouble, type ScanResult } from '../scan';
import type { Change } from '../changes';
import { QuietTimer } from '../quiet';
import { quietCells } from './aging';
import { asRootSnapshot, type RootSnapshot } from '../place/snapshot';
import { kindFor } from './looked';
import { readRemoteCell, replaceCells, stillHolds, type Known, type RemoteCellReads } from './remote-cell';
import { cellHolding } from './root-watcher';
import type { RootIndex } from './root-index';
import { OutputTooLarge } from '../../shared/errors';

/** Remote reads in flight at once: one connection carries them all. */
const PARALLEL_REMOTE = 8;
/** Changes are gathered this long before the cells they concern are read again. */
const SETTLE_MS = 30;
/** How often the root is looked at while its host has no live change feed. */
const RESCAN_MS = 3000;

export class RemoteIndex implements RootIndex {
  private scan: Omit<ScanResult, 'cells'> | undefined;
  private readonly cells = new Map<string, Known>();
  private readonly dirty = new Set<string>();
  /** Running cells whose logs grow: read again once quiet. */
  private readonly quiet = new Map<string, QuietTimer>();
  private rescanWanted = false;
  private settleTimer: NodeJS.Timeout | undefined;
  private work: Promise<unknown> = Promise.resolve();
  private unwatch: Promise<() => Promise<void>> | undefined;
  private readonly rescanMs: number | false;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** The last scan's snapshot of the root. */
  private snapshot: RootSnapshot | null = null;

  /** `watch`: the host's feed tells of changes below the root (false: the CLI's one look). */
  constructor(
    readonly root: string,
    private readonly context: HostContext,
    private readonly reads: RemoteCellReads,
    private readonly path: string,
    private readonly onDelta: (delta: CellsDelta) => void,
    private readonly onStatus: () => void,
    { rescanMs = RESCAN_MS, watch = true }: { rescanMs?: number | false; watch?: boolean } = {},
  ) {
    this.rescanMs = rescanMs;
    if (watch) this.unwatch = context.watch(path, (change) => this.changed(change), () => undefined);
  }

  status(source: RootStatus['source']): Omit<RootStatus, 'limit'> {
    const scan = this.scan?.state === 'ok' ? this.scan : (this.hostDown() ?? this.scan);
    return { path: this.root, source, state: scan?.state ?? 'scanning', cellCount: this.cells.size, problems: scan?.problems ?? [], progress: null };
  }

  /**
   * While the host is not connected and says why (a name that does not resolve, a refused port, a timeout):
   * the root is unreadable for that reason, as soon as the host knows it; its cells stay as last read.
   */
  private hostDown(): Omit<ScanResult, 'cells'> | undefined {
    const { presence, problem: why } = this.context.connection();
    if (presence === 'live' || !why) return undefined;
    return { state: 'unreadable', problems: [problem(this.root, `${this.context.host} is ${presence}: ${why}`)] };
  }

  list(): CellSummary[] {
    return [...this.cells.values()].map((c) => c.row);
  }

  private cellOf(path: string): Known | undefined {
    const holding = cellHolding(this.cells, this.path, path);
    return holding ? this.cells.get(holding.dir) : undefined;
  }

  private changed(change: Change): void {
    const inside = change.path.startsWith(`${this.path}/`);
    const known = inside ? this.cellOf(change.path) : undefined;
    if (!inside) this.rescanWanted = true;
    else if (known) {
      // A change on a cell folder itself may be anything; a cell that is a file is a log like any other.
      const how = change.path === known.row.path && !ADAPTERS[known.format].capabilities.fileCell ? 'changed' : kindFor(known.looked, change);
      if (how === 'changed' || (how === 'appended' && known.row.state !== 'running')) this.dirty.add(known.row.path);
      else if (how === 'appended') this.appended(known);
    } else if (change.kind !== 'modified' && (change.kind !== 'changed' || (DETECT_FILES as readonly string[]).includes(posix.basename(change.path)))) {
      // Outside every known cell, a new folder or a new run.json may be a new cell.
      this.rescanWanted = true;
    }
    if (!this.rescanWanted && this.dirty.size === 0) return;
    clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => void this.queue(() => this.catchUp()), SETTLE_MS);
  }

  /**
   * A running cell's log grew: its row says it changed now, and the cell is read again once its logs are
   * quiet for a moment (at least every 30 s), not once a line: over SSH a read costs more than a line.
   */
  private appended(known: Known): void {
    const dir = known.row.path;
    const now = Date.now();
    if (known.row.changedAt === null || now - known.row.changedAt > 1000) {
      known.row = { ...known.row, changedAt: now };
      this.send({ root: this.root, added: [], changed: [known.row], removed: [] });
    }
    let quiet = this.quiet.get(dir);
    if (!quiet) {
      quiet = new QuietTimer(() => {
        this.quiet.delete(dir);
        this.dirty.add(dir);
        void this.queue(() => this.catchUp());
      });
      this.quiet.set(dir, quiet);
    }
    quiet.poke();
  }

  private queue<T>(task: () => Promise<T>): Promise<T> {
    const next = this.work.then(task, task);
    this.work = next.catch(() => undefined);
    return next;
  }

  private async catchUp(): Promise<void> {
    if (this.rescanWanted) return void (await this.scanNow());
    const dirs = [...this.dirty];
    this.dirty.clear();
    const delta: CellsDelta = { root: this.root, added: [], changed: [], removed: [] };
    await mapLimited(dirs, PARALLEL_REMOTE, async (dir) => {
      const known = this.cells.get(dir);
      if (!known) return;
      const read = await this.read(dir, known.format).catch(() => null);
      if (!read) return void this.dirty.add(dir);
      if (read.gone) {
        this.cells.delete(dir);
        delta.removed.push(known.row.id);
      } else if (JSON.stringify(read.known.row) !== JSON.stringify(known.row)) {
        this.cells.set(dir, read.known);
        delta.changed.push(read.known.row);
      } else this.cells.set(dir, read.known);
    });
    this.send(delta);
  }

  reread(cellPath: string): void {
    if (!this.cells.has(cellPath)) return;
    this.dirty.add(cellPath);
    void this.queue(() => this.catchUp());
  }

  private read(dir: string, format: FormatName, snapshot?: CellFs): Promise<{ known: Known; gone: boolean }> {
    return readRemoteCell(this.reads, this.context, this.root, dir, format, snapshot ?? this.context.read().fs);
  }

  private send(delta: CellsDelta): void {
    if (delta.added.length || delta.changed.length || delta.removed.length) this.onDelta(delta);
    if (delta.added.length || delta.removed.length) this.onStatus();
  }

  /** Finds the root's cells with one command and reads each; true when anything the user sees changed. */
  private async scanNow(): Promise<boolean> {
    // Not connected: the root says why from the host's own status (hostDown), read when it is asked; the
    // cells asked to be read again stay asked until a scan can read them.
    if (this.context.connection().presence !== 'live') return false;
    this.rescanWanted = false;
    // Cells asked to be read again (a change, a scorer picked, gone quiet) are, whatever the snapshots say.
    const asked = new Set([...this.dirty, ...quietCells(this.list(), Date.now())]);
    this.dirty.clear();
    const alias = this.context.host;
    const before = JSON.stringify(this.scan);
    const waiting = (message: string) => (this.scan = this.scan?.state === 'ok' ? this.scan : { state: 'unreadable', problems: [problem(this.root, message)] });
    try {
      const ctx = this.context.read();
      const trouble = await rootTrouble(ctx.fs, this.path, this.root);
      // The whole root in one round trip; the cells are read from it, and over SFTP for what it does not hold.
      const snapshot = trouble ? null : await this.context.snapshot(this.path, REMOTE_DEPTH);
      const problems: Problem[] = [];
      const known = new Map([...this.cells].map(([dir, { format }]) => [dir, format]));
      const found = snapshot ? await findCells(snapshot, this.path, problems, 0, known) : [];
      // The rescan as a feed starts finds most cells as the last scan did: those are not read again.
      const [last, current] = [this.snapshot, snapshot && asRootSnapshot(snapshot)];
      const reads = await mapLimited(found, PARALLEL_REMOTE, async ({ dir, format }) => {
        const held = asked.has(dir) ? undefined : stillHolds(this.cells.get(dir), format, last, current);
        return held ? { known: held, gone: false } : this.read(dir, format, snapshot ?? undefined);
      });
      this.snapshot = current;
      const delta = replaceCells(this.root, this.cells, reads);
      this.scan = trouble ?? { state: 'ok', problems };
      this.send(delta);
      return delta.added.length + delta.changed.length + delta.removed.length > 0 || before !== JSON.stringify(this.scan);
    } catch (error) {
      if (error instanceof OutputTooLarge) {
        // Not a passing state: the root is not what it says until it holds less. Its cells stay as last read.
        const tip = 'move large JSON files out of the runs root, or add a root further down';
        this.scan = { state: 'unreadable', problems: [problem(this.root, `listing the root on ${alias} ${error.message}`, { tip })] };
      } else waiting(`${alias}: ${(error as Error).message}`);
      return before !== JSON.stringify(this.scan);
    }
  }

  /** Rescans now; the status is told again when it changed. */
  async refresh(): Promise<void> {
    if (await this.queue(() => this.scanNow())) this.onStatus();
  }

  /** The first scan, then the periodic look. */
  async start(): Promise<void> {
    await this.refresh();
    if (this.rescanMs === false || this.closed) return;
    let sweeping = false;
    this.timer = setInterval(() => {
      if (sweeping) return;
      sweeping = true;
      void this.sweep().finally(() => (sweeping = false));
    }, this.rescanMs);
    this.timer.unref();
  }

  /**
   * The periodic look: a whole rescan while the host's feed is down (a feed that starts rescans itself),
   * and the root's state said again while the host is not connected (no request is sent then). While the
   * feed runs, the cells that time alone changed (gone quiet, a throttle pause run out) are read again.
   */
  private async sweep(): Promise<void> {
    if (!this.context.live() || this.context.connection().presence !== 'live') return this.refresh();
    const quiet = quietCells(this.list(), Date.now());
    quiet.forEach((dir) => this.dirty.add(dir));
    if (quiet.length) await this.queue(() => this.catchUp());
  }

  async close(): Promise<void> {
    this.closed = true;
    this.reads.forget(this.context.host, this.path);
    clearInterval(this.timer);
    clearTimeout(this.settleTimer);
    this.quiet.forEach((q) => q.cancel());
    await (await this.unwatch)?.();
  }
}
