/**
 * Runs `act` once things have been quiet for `quietMs`, and at least every `maxMs` while they never are:
 * how a growing log's reader is read again over SSH without a read per line.
 */
export class QuietTimer {
  private timer: NodeJS.Timeout | undefined;
  private since: number | null = null;

  constructor(
    private readonly act: () => void,
    private readonly quietMs = 2000,
    private readonly maxMs = 30_000,
  ) {}

  poke(): void {
    const now = Date.now();
    this.since ??= now;
    clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.quietMs, this.since + this.maxMs - now));
    this.timer = setTimeout(() => this.fire(), wait);
  }

  private fire(): void {
    this.since = null;
    this.timer = undefined;
    this.act();
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.since = null;
  }
}

/**
 * A read asked for again and again as files change (an open cell, a root's changed cells): one at a time,
 * and the changes made during one ask for one more after it, never a queue. The next starts no sooner than
 * `settleMs` after it is asked for (the changes of a burst gather) and `pausePerRead` times as long after
 * the last ended as that one took: a read costs what the cells' size does (a cell of thousands of episodes:
 * tens of milliseconds), so one written to without a pause is read with 1 / (pausePerRead + 1) of a core at
 * most, and a small one as soon as its changes settle.
 */
export class Rereads {
  private running: Promise<void> | null = null;
  private asked = false;
  private closed = false;
  private nextAt = 0;
  /** Ends the wait for the next read (at close). */
  private endWait: (() => void) | undefined;

  /**
   * `read` says its own failures (it never rejects); `before`, other work each read waits for first (a
   * sweep of the root), is not counted in what the read took.
   */
  constructor(
    private readonly read: () => Promise<void>,
    private readonly settleMs: number,
    private readonly pausePerRead: number,
    private readonly before: () => Promise<void> = async () => undefined,
  ) {}

  ask(): void {
    this.asked = true;
    this.running ??= this.readWhileAsked().finally(() => (this.running = null));
  }

  private async readWhileAsked(): Promise<void> {
    while (this.asked && !this.closed) {
      await this.waited(Math.max(this.settleMs, this.nextAt - performance.now()));
      if (this.closed) return;
      this.asked = false;
      await this.before();
      const started = performance.now();
      try {
        await this.read();
      } finally {
        const ended = performance.now();
        this.nextAt = ended + Math.min(MAX_PAUSE_MS, this.pausePerRead * (ended - started));
      }
    }
  }

  private waited(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.endWait?.(), ms);
      this.endWait = () => {
        clearTimeout(timer);
        this.endWait = undefined;
        resolve();
      };
    });
  }

  /** No more reads: the one running, if any, is waited for. */
  async close(): Promise<void> {
    this.closed = true;
    this.endWait?.();
    await this.running;
  }
}

/**
 * After a read of files here, a pause nine times as long as it took: a tenth of a core at most. A read
 * over SSH is mostly waiting on the link, not working: three times, as the link's time is not this machine's.
 */
export const PAUSE_PER_LOCAL_READ = 9;
export const PAUSE_PER_REMOTE_READ = 3;
/** However long a read took, the next waits no longer than this. */
const MAX_PAUSE_MS = 30_000;
