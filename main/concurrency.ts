/** Maps with at most `limit` calls in flight: enough to keep the disk busy, far from the open-file limit. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T);
    }
  });
  await Promise.all(workers);
  return results;
}

/** File operations in flight at once while scanning. */
export const PARALLEL_IO = 32;

/**
 * Where thousands of rows come at once (a root's cached rows, `board --json`'s cells), how many the thread
 * that answers the window handles before it lets the event loop turn: a call never waits on all of them.
 */
export const ROWS_A_TURN = 500;

/** The event loop's next turn: what waits on this thread (a call, a message) runs first. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** At most `limit` tasks at once; the rest wait their turn in order. */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}
