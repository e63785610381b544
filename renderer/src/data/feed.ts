import { createStore, type StoreApi } from 'zustand/vanilla';
import type { BackendEvents, EventName, Transport, Unsubscribe } from '../../../shared/contract';
import { asError } from '../../../shared/errors';

export interface Fed<T> {
  value: T | null;
  error: Error | null;
}

export interface FeedSpec<T> {
  /** What the core answers now. */
  ask(): Promise<T>;
  /** Events after which the answer may have changed: it is asked again, at most once a `gapMs`. */
  asksAgainOn?: EventName[];
  gapMs?: number;
  /** Events that bring the answer itself, or a change to it. */
  takes?: { [E in EventName]?: (value: T | null, payload: BackendEvents[E]) => T | null };
  /** Asked again this often while held, for what no event tells (the machine's load). */
  everyMs?: number;
}

/**
 * One view's data from the core: asked when the first view holds it, kept current by events while any
 * does, left when the last lets go (inspect_ai's store slices: init and cleanup). The value stays for the
 * next view that holds it.
 */
export class Feed<T> {
  readonly store: StoreApi<Fed<T>> = createStore<Fed<T>>()(() => ({ value: null, error: null }));
  private holders = 0;
  private offs: Unsubscribe[] = [];
  private asking = false;
  private again = false;
  private lastAsked = -Infinity;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly spec: FeedSpec<T>,
  ) {}

  /** Starts feeding while held; the function returned lets go. */
  hold(): () => void {
    if (this.holders++ === 0) this.start();
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      if (--this.holders === 0) this.stop();
    };
  }

  /** Asks now, past any gap (the user asked for it). */
  refresh(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.lastAsked = -Infinity;
    this.askSoon();
  }

  private start(): void {
    const { asksAgainOn = [], takes = {}, everyMs } = this.spec;
    this.offs = [
      ...asksAgainOn.map((event) => this.transport.on(event, () => this.askSoon())),
      ...Object.entries(takes).map(([event, take]) =>
        this.transport.on(event as EventName, (payload) => this.store.setState(({ value }) => ({ value: (take as (v: T | null, p: unknown) => T | null)(value, payload), error: null }))),
      ),
      // Events of the gap were missed.
      this.transport.onReopened(() => this.refresh()),
    ];
    if (everyMs !== undefined) {
      const every = setInterval(() => this.refresh(), everyMs);
      this.offs.push(() => clearInterval(every));
    }
    this.refresh();
  }

  private stop(): void {
    this.offs.forEach((off) => off());
    this.offs = [];
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** One question in flight at a time, at most one a gap; what changes meanwhile is asked for once after. */
  private askSoon(): void {
    if (this.holders === 0 || this.timer !== undefined) return;
    if (this.asking) {
      this.again = true;
      return;
    }
    const wait = this.lastAsked + (this.spec.gapMs ?? 0) - performance.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.askSoon();
      }, wait);
      return;
    }
    this.asking = true;
    this.lastAsked = performance.now();
    this.spec.ask().then(
      (value) => this.store.setState({ value, error: null }),
      (error: unknown) => this.store.setState({ error: asError(error) }),
    ).finally(() => {
      this.asking = false;
      if (this.again) {
        this.again = false;
        this.askSoon();
      }
    });
  }
}
