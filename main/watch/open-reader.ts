// The cells open in the window, read off the thread that serves it: workers of their own, each with a
// memory cap and the read workers' stall deadline. A cell whose read runs past either fails alone (a
// problem of that cell); every other call and cell keeps answering.
import type { Transcript } from '../../shared/cell-detail';
import type { FormatName } from '../../shared/model';
import type { CellRead } from '../../runners';
import type { Looked } from '../roots/looked';
import { ReadWorkers } from '../roots/read-workers';
import { slot } from '../roots/pool';
import type { PairSide } from '../roots/worker-jobs';
import type { PairedTest } from '../../shared/mcnemar';

/** The heap one open-cell worker may hold; past it the worker dies and the read fails, naming the cell. */
const HEAP_MB = 512;
/** Two: one cell that takes long to read does not hold up the next one opened. */
const WORKERS = 2;

/** The same worker for a cell each time: it keeps the cell's last good JSON and its logs' checks. */
const workerOf = (dir: string) => slot(dir, WORKERS);

export class OpenCellReader {
  private threads: ReadWorkers | undefined;

  constructor(private readonly options: { heapMb?: number; stallMs?: number } = {}) {}

  /** Started at the first cell opened: a CLI command that opens none starts none. */
  private get workers(): ReadWorkers {
    return (this.threads ??= new ReadWorkers(WORKERS, this.options.stallMs, this.options.heapMb ?? HEAP_MB));
  }

  /** The cell and what its view shows, from one read, and what that read looked at. */
  detail(dir: string, format: FormatName): Promise<{ read: CellRead; looked: Looked }> {
    return this.workers.ask(workerOf(dir), { type: 'detail', dir, format }, (reply, finish) => {
      if (reply.type === 'detailed') finish({ read: reply.read, looked: { files: new Set(reply.looked.files), dirs: new Set(reply.looked.dirs) } });
    });
  }

  /** One unit of the cell read like a transcript; null when it has none such. */
  transcript(dir: string, format: FormatName, unit: string): Promise<Transcript | null> {
    return this.workers.ask(workerOf(dir), { type: 'transcript', dir, format, unit }, (reply, finish) => reply.type === 'transcribed' && finish(reply.transcript));
  }

  /** The paired test of two local sides, read and paired off this thread (500,000 seeds a side take seconds), its lists cut for the window. */
  pair(a: PairSide, b: PairSide): Promise<PairedTest> {
    return this.workers.ask(workerOf(a.dir), { type: 'pair', a, b }, (reply, finish) => reply.type === 'paired' && finish(reply.test));
  }

  async close(): Promise<void> {
    await this.threads?.close();
  }
}
