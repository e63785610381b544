// The cells of a runs root on an SSH host, kept up to date by the host's change feed: a change rereads
// only the cell it concerns, over the host's one connection; a whole rescan happens at the start, when
// the feed (re)starts, and every few seconds while no feed runs. Changes go out as deltas.
import { posix } from 'node:path';
import { problem, type CellsDelta, type CellSummary, type FormatName, type RootStatus } from '../../shared/model';
import { DETECT_FILES } from '../../runners/detect';
import { readCell, summaryOf } from '../../runners/read';
import type { CellContext } from '../cell-context';
import { mapLimited } from '../concurrency';
import { REMOTE_DEPTH, rootTrouble, type ScanResult } from '../scan';
import { cellsAmong } from '../ssh/discover';
import { SnapshotFs, snapshotCommand } from '../ssh/snapshot';
import { OutputTooLarge } from '../ssh/connection';
import type { HostFeed } from '../ssh/feed';
import type { Change } from '../changes';
import type { RemoteHost } from '../ssh/host';
import { QuietTimer } from '../quiet';
import { kindFor, lookingContext, type Looked } from './looked';

/** Remote reads in flight at once: one connection carries them all. */
const PARALLEL_REMOTE = 8;
/** Changes are gathered this long before the cells they concern are read again. */
const SETTLE_MS = 30;

interface Known {
  row: CellSummary;
  format: FormatName;
  looked: Looked;
}

export class RemoteIndex {
  private scan: Omit<ScanResult, 'cells'> | undefined;
  private readonly cells = new Map<string, Known>();
  private readonly dirty = new Set<string>();
  /** Running cells whose logs grow: read again once quiet. */
  private readonly quiet = new Map<string, QuietTimer>();
  private rescanWanted = false;
  private settleTimer: NodeJS.Timeout | undefined;
  private work: Promise<unknown> = Promise.resolve();
  private readonly unsubscribe: () => void;

  constructor(
    readonly root: string,
    private readonly host: RemoteHost,
    private readonly path: string,
    private readonly context: CellContext,
    private readonly feed: HostFeed,
    private readonly onDelta: (delta: CellsDelta) => void,
  ) {
    this.unsubscribe = feed.subscribe(path, (change) => this.changed(change));
  }

  status(source: RootStatus['source']): RootStatus {
    return { path: this.root, source, state: this.scan?.state ?? 'scanning', cellCount: this.cells.size, problems: this.scan?.problems ?? [], progress: null };
  }

  list(): CellSummary[] {
    return [...this.cells.values()].map((c) => c.row);
  }

  private cellOf(path: string): Known | undefined {
    for (let dir = path; dir.length > this.path.length; dir = posix.dirname(dir)) {
      const known = this.cells.get(dir);
      if (known) return known;
    }
    return undefined;
  }

  private changed(change: Change): void {
    const inside = change.path.startsWith(`${this.path}/`);
    const known = inside ? this.cellOf(change.path) : undefined;
    if (!inside) this.rescanWanted = true;
    else if (known) {
      const how = change.path === known.row.path ? 'changed' : kindFor(known.looked, change);
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

  private async read(dir: string, format: FormatName, snapshot?: SnapshotFs): Promise<{ known: Known; gone: boolean }> {
    const base = this.context.read();
    const { ctx, looked } = lookingContext(snapshot ? { ...base, fs: snapshot } : base);
    const read = await readCell(dir, format, ctx);
    return { known: { row: { ...summaryOf(read, this.root), root: this.root }, format, looked }, gone: read.gone === true };
  }

  private send(delta: CellsDelta): void {
    if (delta.added.length || delta.changed.length || delta.removed.length) this.onDelta(delta);
  }

  /** Finds the root's cells with one command and reads each; true when anything the user sees changed. */
  private async scanNow(): Promise<boolean> {
    this.rescanWanted = false;
    this.dirty.clear();
    const { alias, status } = this.host;
    const before = JSON.stringify(this.scan);
    const waiting = (message: string) => (this.scan = this.scan?.state === 'ok' ? this.scan : { state: 'unreadable', problems: [problem(this.root, message)] });
    if (status.state !== 'connected') {
      waiting(`${alias} is ${status.state}${status.problem ? `: ${status.problem.message}` : ''}`);
      return before !== JSON.stringify(this.scan);
    }
    try {
      const ctx = this.context.read();
      const trouble = await rootTrouble(ctx.fs, this.path, this.root);
      // The whole root in one round trip; the cells are read from it, and over SFTP for what it does not hold.
      const snapshot = trouble ? null : new SnapshotFs((await this.host.exec(snapshotCommand(this.path, REMOTE_DEPTH))).stdout, this.path, REMOTE_DEPTH, ctx.fs);
      const found = snapshot ? cellsAmong(snapshot.jsonFiles(), this.path) : [];
      const reads = await mapLimited(found, PARALLEL_REMOTE, ({ dir, format }) => this.read(dir, format, snapshot ?? undefined));
      const delta: CellsDelta = { root: this.root, added: [], changed: [], removed: [] };
      const next = new Map(reads.filter((r) => !r.gone).map((r) => [r.known.row.path, r.known]));
      for (const [dir, known] of next) {
        const was = this.cells.get(dir);
        if (!was) delta.added.push(known.row);
        else if (JSON.stringify(was.row) !== JSON.stringify(known.row)) delta.changed.push(known.row);
      }
      delta.removed = [...this.cells.keys()].filter((dir) => !next.has(dir)).map((dir) => (this.cells.get(dir) as Known).row.id);
      this.cells.clear();
      next.forEach((known, dir) => this.cells.set(dir, known));
      this.scan = trouble ?? { state: 'ok', problems: [] };
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

  /** Rescans now; true when anything the user sees changed. */
  rescan(): Promise<boolean> {
    return this.queue(() => this.scanNow());
  }

  /**
   * The periodic look: a whole rescan while the host's feed is down (a feed that starts rescans itself),
   * and the root's state said again while the host is not connected (no request is sent then).
   */
  async sweep(): Promise<boolean> {
    return this.feed.status.state === 'down' || this.host.status.state !== 'connected' ? this.rescan() : false;
  }

  async refresh(): Promise<void> {
    await this.rescan();
  }

  async close(): Promise<void> {
    clearTimeout(this.settleTimer);
    this.quiet.forEach((q) => q.cancel());
    this.unsubscribe();
  }
}
