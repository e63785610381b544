// The cells open in the window, here or on SSH hosts, and the rows of remote roots, read off the thread that
// serves it: workers of their own, each with a memory cap and the read workers' stall deadline. A host's
// files are read over its connection here, at the worker's asking (roots/host-files.ts); parsing them is the
// worker's. A cell whose read runs past either limit fails alone (a problem of that cell); every other call
// and cell keeps answering.
import type { Transcript } from '../../shared/cell-detail';
import type { CellSummary, FormatName } from '../../shared/model';
import type { CellFs, CellRead, ScorerPicks } from '../../runners';
import type { Looked } from '../roots/looked';
import { ReadWorkers } from '../roots/read-workers';
import { slot } from '../roots/pool';
import { asRootSnapshot, type RootSnapshot } from '../place/snapshot';
import type { FsCall, PairSide, WorkerReply } from '../roots/worker-jobs';
import type { PairedTest } from '../../shared/mcnemar';

/** The heap one open-cell worker may hold; past it the worker dies and the read fails, naming the cell. */
const HEAP_MB = 512;
/** Two: one cell that takes long to read does not hold up the next one opened. */
const WORKERS = 2;

/** The same worker for a cell each time: it keeps the cell's last good JSON and its logs' checks. */
const workerOf = (host: string, dir: string) => slot(`${host}:${dir}`, WORKERS);

/** Does a file call on `fs`. */
function call(fs: CellFs, request: FsCall): Promise<unknown> {
  if (request.op === 'list') return fs.list(...request.args);
  if (request.op === 'stat') return fs.stat(...request.args);
  if (request.op === 'read') return fs.read(...request.args);
  return request.op === 'readFrom' ? fs.readFrom(...request.args) : fs.readBytes(...request.args);
}

export class OpenCellReader {
  private threads: ReadWorkers | undefined;
  /** Each remote root's snapshot: the stamp the workers hold it under, and the workers sent it. */
  private readonly stamps = new WeakMap<RootSnapshot, { stamp: number; sent: Set<number> }>();
  private nextStamp = 1;

  /** `filesOf`: an SSH host's files, read over its connection. */
  constructor(
    private readonly filesOf: (host: string) => CellFs,
    private readonly options: { heapMb?: number; stallMs?: number; scorers?: () => ScorerPicks } = {},
  ) {}

  private picks(): ScorerPicks {
    return this.options.scorers?.() ?? {};
  }

  /** Started at the first cell opened: a CLI command that opens none starts none. */
  private get workers(): ReadWorkers {
    return (this.threads ??= new ReadWorkers(WORKERS, this.options.stallMs, this.options.heapMb ?? HEAP_MB));
  }

  /**
   * Asks worker `index` a job, answering the file calls it makes of hosts (from `files` where given, else
   * from the host's own); `onReply` hears its other replies.
   */
  private ask<T>(index: number, job: Parameters<ReadWorkers['ask']>[1], onReply: (reply: WorkerReply, finish: (value: T) => void) => void, files?: CellFs): Promise<T> {
    return this.workers.ask<T>(index, job, (reply, finish) => {
      if (reply.type !== 'fs') return onReply(reply, finish);
      call(files ?? this.filesOf(reply.host), reply).then(
        (result) => this.workers.answer(index, reply.id, { type: 'fsAnswer', call: reply.call, result }),
        (error: Error) => this.workers.answer(index, reply.id, { type: 'fsAnswer', call: reply.call, error: { name: error.name, message: error.message } }),
      );
    });
  }

  /**
   * The cell and what its view shows, from one read, and what that read looked at; `changed`: the paths a
   * watch saw change since the last read (null: anything may have), whose event logs alone are checked again.
   */
  detail(host: string, dir: string, format: FormatName, changed: string[] | null = null): Promise<{ read: CellRead; looked: Looked }> {
    return this.ask(workerOf(host, dir), { type: 'detail', host, dir, format, scorers: this.picks(), changed }, (reply, finish) => {
      if (reply.type === 'detailed') finish({ read: reply.read, looked: { files: new Set(reply.looked.files), dirs: new Set(reply.looked.dirs) } });
    });
  }

  /**
   * A cell on an SSH host read for its root's index, `files` answering its file calls (the root's snapshot,
   * or the host's SFTP): its row, whether it is gone, and what the read looked at.
   */
  summary(host: string, dir: string, format: FormatName, root: string, files: CellFs): Promise<{ row: CellSummary; gone: boolean; looked: Looked }> {
    const index = workerOf(host, dir);
    const job = { type: 'summary' as const, host, dir, format, root, scorers: this.picks(), snapshot: this.shared(index, host, asRootSnapshot(files)) };
    return this.ask(index, job, (reply, finish) => {
      if (reply.type === 'summarized') finish({ row: reply.row, gone: reply.gone, looked: { files: new Set(reply.looked.files), dirs: new Set(reply.looked.dirs) } });
    }, files);
  }

  /**
   * The stamp under which worker `index` holds `snapshot` (a remote root's, for its scan's summaries; null
   * for other files), sent to it before its first summary of that scan: a root of one cell starts one
   * worker. A worker started again since holds none: its summaries ask this thread for each file, which
   * answers from the same snapshot.
   */
  private shared(index: number, host: string, snapshot: RootSnapshot | null): number | null {
    if (!snapshot) return null;
    let shared = this.stamps.get(snapshot);
    if (!shared) this.stamps.set(snapshot, (shared = { stamp: this.nextStamp++, sent: new Set() }));
    if (!shared.sent.has(index)) {
      shared.sent.add(index);
      this.workers.tell(index, { type: 'snapshot', host, root: snapshot.root, depth: snapshot.depth, output: snapshot.output, stamp: shared.stamp });
    }
    return shared.stamp;
  }

  /** The workers let go of the snapshot of `root` on `host` (a root removed). */
  forget(host: string, root: string): void {
    this.threads?.tellAll({ type: 'snapshot', host, root, depth: 0, output: null, stamp: 0 });
  }

  /** One unit of the cell read like a transcript; null when it has none such. */
  transcript(host: string, dir: string, format: FormatName, unit: string): Promise<Transcript | null> {
    return this.ask(workerOf(host, dir), { type: 'transcript', host, dir, format, unit, scorers: this.picks() }, (reply, finish) => reply.type === 'transcribed' && finish(reply.transcript));
  }

  /** The paired test of two sides, read and paired off this thread (500,000 seeds a side take seconds), its lists cut for the window. */
  pair(a: PairSide, b: PairSide): Promise<PairedTest> {
    return this.ask(workerOf(a.host, a.dir), { type: 'pair', a, b, scorers: this.picks() }, (reply, finish) => reply.type === 'paired' && finish(reply.test));
  }

  async close(): Promise<void> {
    await this.threads?.close();
  }
}
