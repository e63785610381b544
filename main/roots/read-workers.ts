// The read workers' threads (read-worker.ts): started, asked one job at a time each, and replaced when
// one stops answering.
import { Worker, type TransferListItem } from 'node:worker_threads';
import { startThread, workersScript } from './worker-script';
import { formatAddress } from '../../shared/address';
import type { FsAnswer, WorkerJob, WorkerReply } from './worker-jobs';

/** A job without its id (the pool numbers them). */
export type Asked = Extract<WorkerJob, { id: number }> extends infer J ? (J extends { id: number } ? Omit<J, 'id'> : never) : never;

/**
 * A worker's garbage is short-lived (each cell's files, parsed and summed up): a small young generation
 * collects it as fast. 16 MB measured best for a cold status of 10,000 cells: 5 % faster and 35 MB less at
 * its peak than 8 MB (more survived each collection there), against 64 MB 100 MB more.
 */
const YOUNG_MB = 16;

/** A read worker, its heap kept to its limits. */
function startWorker(oldMb: number | undefined): Worker {
  const limits = { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB, ...(oldMb ? { maxOldGenerationSizeMb: oldMb } : {}) } };
  return startThread(workersScript(), 'read', limits);
}

/** A job that hears nothing from its worker for this long is given up: a read hung on a dead network disk. */
const STALL_MS = 30_000;

/** What a job was doing, for the message when it stalls. */
function describe(job: Asked): string {
  if (job.type === 'compare') return `comparing the ${job.entries.length} cells on the board`;
  const where = (host: string, dir: string) => formatAddress({ host, path: dir });
  if (job.type === 'detail' || job.type === 'summary') return `reading ${where(job.host, job.dir)}`;
  if (job.type === 'transcript') return `reading ${job.unit} of ${where(job.host, job.dir)}`;
  if (job.type === 'pair') return `pairing ${where(job.a.host, job.a.dir)} and ${where(job.b.host, job.b.dir)}`;
  const dirs = 'cells' in job ? job.cells.map((c) => c.dir) : 'dirs' in job ? job.dirs : [];
  const what = { discover: 'finding cells in', sweep: 'checking', restore: 'checking the cache of', unitsTo: "reading the board's units of" }[job.type as string] ?? 'reading';
  return `${what} ${dirs.length === 1 ? dirs[0] : `${dirs.length} folders (${dirs[0]}, ...)`}`;
}

/**
 * Each worker starts at its first job (a thread costs 60-110 ms of a core to start here): `cellwatch status`
 * of one cell, or a window that opens one, starts one.
 */
export class ReadWorkers {
  /** Each worker, once started. */
  private readonly workers: (Worker | undefined)[];
  private nextId = 1;
  private readonly waiting = new Map<number, { worker: number; onReply: (reply: WorkerReply) => void; reject: (error: Error) => void; answered: () => void }>();
  /** Workers that died: started again by their next job. */
  private readonly dead = new Set<number>();
  /** Workers whose script is still loading, with the stall clocks of their jobs, started once it has. */
  private readonly loading = new Map<Worker, (() => void)[]>();
  /** Jobs in flight per worker: a busy worker keeps the process alive, an idle one does not. */
  private readonly busy = new Map<Worker, number>();

  /**
   * `stallMs`: how long a job may go without a word from its worker before it fails and the worker is
   * replaced; `oldMb`: the heap a worker may hold (one past it dies, its jobs fail, and it is replaced).
   */
  constructor(
    size: number,
    public stallMs = STALL_MS,
    private readonly oldMb?: number,
  ) {
    this.workers = Array.from({ length: size }, () => undefined);
  }

  get size(): number {
    return this.workers.length;
  }

  /** The worker with the fewest jobs in flight (the first of those, started or not). */
  leastBusy(): number {
    const load = (i: number) => {
      const worker = this.workers[i];
      return worker ? (this.busy.get(worker) ?? 0) : 0;
    };
    return this.workers.reduce((least, _, i) => (load(i) < load(least) ? i : least), 0);
  }

  /** Worker `index`, started if it has not been, or again if it died. */
  private worker(index: number): Worker {
    const worker = this.workers[index];
    if (worker && !this.dead.delete(index)) return worker;
    return (this.workers[index] = this.spawn(index));
  }

  private spawn(index: number): Worker {
    const worker = startWorker(this.oldMb);
    this.loading.set(worker, []);
    worker.on('message', (reply: WorkerReply) => {
      if (reply.type !== 'ready') return this.waiting.get(reply.id)?.onReply(reply);
      this.loading.get(worker)?.forEach((start) => start());
      this.loading.delete(worker);
    });
    // A worker that died (out of its memory) fails its jobs; the next job starts a fresh one (not at once: one
    // that dies as it starts would be started again for ever).
    worker.on('error', (error) => {
      this.loading.delete(worker);
      this.dead.add(index);
      this.failAll(index, error);
    });
    worker.unref();
    return worker;
  }

  private failAll(index: number, error: Error): void {
    for (const job of [...this.waiting.values()]) if (job.worker === index) job.reject(error);
  }

  /**
   * A worker stuck in a file call (its reads are synchronous) cannot be interrupted: it is left behind and
   * a fresh one takes its place; its jobs fail, naming what they were doing, and the caller tries later.
   */
  private replace(index: number, error: Error): void {
    const stuck = this.workers[index] as Worker;
    this.workers[index] = this.spawn(index);
    this.loading.delete(stuck);
    stuck.removeAllListeners();
    stuck.on('error', () => undefined);
    void stuck.terminate();
    this.failAll(index, error);
  }

  /** Sends worker `index` a job (handing it `transfer`); `onReply` hears each of its replies until it calls `finish`. */
  ask<T>(index: number, job: Asked, onReply: (reply: WorkerReply, finish: (value: T) => void) => void, transfer: TransferListItem[] = []): Promise<T> {
    const worker = this.worker(index);
    const id = this.nextId++;
    this.busy.set(worker, (this.busy.get(worker) ?? 0) + 1);
    worker.ref();
    let timer: NodeJS.Timeout | undefined;
    /** The job's file calls this thread is answering (an SSH host's): its clock stops until they are answered. */
    let asking = 0;
    const stalled = () => this.replace(index, new Error(`${describe(job)} made no progress for ${this.stallMs >= 1000 ? `${this.stallMs / 1000} s` : `${this.stallMs} ms`} (a hung network filesystem?)`));
    const done = () => {
      clearTimeout(timer);
      this.waiting.delete(id);
      const left = (this.busy.get(worker) ?? 1) - 1;
      this.busy.set(worker, left);
      if (left === 0) worker.unref();
    };
    return new Promise<T>((resolve, reject) => {
      const finish = (value: T) => (done(), resolve(value));
      this.waiting.set(id, {
        worker: index,
        onReply: (reply) => {
          if (reply.type === 'fs') asking++;
          if (asking > 0) clearTimeout(timer);
          else timer?.refresh();
          if (reply.type !== 'failed') return onReply(reply, finish);
          done();
          reject(Object.assign(new Error(reply.message), { name: reply.name }));
        },
        reject: (error) => (done(), reject(error)),
        answered: () => {
          if (--asking === 0) timer = setTimeout(stalled, this.stallMs);
        },
      });
      // A worker still loading (a busy machine, a slow disk) is not a read hung on one.
      const start = () => this.waiting.has(id) && asking === 0 && (timer = setTimeout(stalled, this.stallMs));
      const loading = this.loading.get(worker);
      if (loading) loading.push(start);
      else start();
      worker.postMessage({ ...job, id }, transfer);
    });
  }

  /** A message for worker `index` alone, with no reply: started to hold it if it has not been. */
  tell(index: number, job: WorkerJob): void {
    this.worker(index).postMessage(job);
  }

  /**
   * The answer to a file call of job `id` (asked of an SSH host here): a host slow to answer is its
   * connection's to judge, so the job's stall clock ran only while the worker itself had the job.
   */
  answer(index: number, id: number, answer: FsAnswer): void {
    this.waiting.get(id)?.answered();
    this.workers[index]?.postMessage(answer);
  }

  /** A job every started worker does, with no reply (letting go of what it holds: one not started, or dead, holds nothing). */
  tellAll(job: WorkerJob): void {
    this.workers.forEach((worker, i) => {
      if (!this.dead.has(i)) worker?.postMessage(job);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w?.terminate()));
  }
}
