// A host's change feed: one read-only process on the host, over its one connection, watching every runs
// root of the host and printing what changes; readers of a path hear of its changes at once.
import { posix } from 'node:path';
import type { FeedStatus } from '../../shared/contract';
import type { Spawned } from '../programs';
import type { Change } from '../changes';
import { feedCommand, FeedReader } from './feed-script';
import { RemoteHost, type RemoteHostOptions } from './host';

export type { FeedStatus };

interface Subscriber {
  path: string;
  /** Whether changes below `path` count too (a folder), or only `path` itself (a file). */
  below: boolean;
  listener: (change: Change) => void;
}

/** How long a feed that ended waits before it starts again while the host stays connected. */
const RESTART_MS = 2000;
/** The longest line the feed prints is a path and its kind: one past this is not the feed speaking. */
const MAX_LINE = 64 * 1024;

export class HostFeed {
  /** What the feed watches: the included folders no other holds. */
  private roots: string[] = [];
  /** Folders readers asked for (a runs root, a cell the CLI follows), each with how many ask. */
  private readonly included = new Map<string, number>();
  private child: Spawned | undefined;
  private generation = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private readonly subscribers = new Set<Subscriber>();
  private closed = false;
  status: FeedStatus = { mode: null, state: 'off', lastChangeAt: null, problem: null };

  constructor(
    private readonly host: RemoteHost,
    private readonly options: { findIntervalS?: number; onStatus?: (status: FeedStatus) => void } = {},
  ) {}

  private set(status: Partial<FeedStatus>): void {
    const next = { ...this.status, ...status };
    const changed = next.state !== this.status.state || next.mode !== this.status.mode || next.problem !== this.status.problem;
    this.status = next;
    if (changed) this.options.onStatus?.(this.status);
  }

  /** Watches `dir` while the returned function is not called (no-op when a folder above it is watched already). */
  include(dir: string): () => void {
    const path = posix.normalize(dir);
    this.included.set(path, (this.included.get(path) ?? 0) + 1);
    this.watchAgain();
    return () => {
      const left = (this.included.get(path) ?? 1) - 1;
      if (left > 0) this.included.set(path, left);
      else this.included.delete(path);
      this.watchAgain();
    };
  }

  /** Watches the included folders no other holds; starts again when that changes. */
  private watchAgain(): void {
    const all = [...this.included.keys()];
    const next = all.filter((p) => !all.some((other) => other !== p && p.startsWith(`${other}/`))).sort();
    if (next.join('\0') === this.roots.join('\0')) return;
    this.roots = next;
    this.start();
  }

  /** The host (re)connected: the feed starts on the new connection (and says again which it is). */
  connected(): void {
    this.start();
  }

  live(): boolean {
    return this.status.state === 'live';
  }

  /**
   * Hears changes of `path` (and below it, when `below`); `path` itself is also told whenever the feed
   * (re)starts, as changes may have been missed while it was down. Returns the function that stops it.
   */
  subscribe(path: string, listener: (change: Change) => void, below = true): () => void {
    const subscriber = { path: posix.normalize(path), below, listener };
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  private tell(change: Change): void {
    this.set({ lastChangeAt: Date.now() });
    for (const s of this.subscribers) {
      // A folder created or removed above a subscriber (a cell's episodes folder) concerns it too.
      if (change.path === s.path || (s.below && change.path.startsWith(`${s.path}/`)) || s.path.startsWith(`${change.path}/`)) s.listener(change);
    }
  }

  private stopChild(): void {
    this.generation++;
    clearTimeout(this.restartTimer);
    this.child?.kill();
    this.child = undefined;
  }

  private start(): void {
    this.stopChild();
    const generation = this.generation;
    if (this.closed || this.roots.length === 0 || this.host.status.state !== 'connected') return void this.set({ state: 'off' });
    this.set({ state: 'starting' });
    try {
      const child = this.host.stream(feedCommand(this.roots, this.options.findIntervalS));
      this.child = child;
      let pending = '';
      const reader = new FeedReader();
      child.stdout.on('data', (chunk: Buffer) => {
        if (generation !== this.generation) return;
        const lines = (pending + chunk.toString('utf8')).split('\n');
        pending = lines.pop() as string;
        if (pending.length > MAX_LINE) {
          child.kill();
          return this.ended(generation, `the change feed sent over ${MAX_LINE} bytes without a line's end; it starts again`);
        }
        for (const line of lines) {
          const told = reader.line(line);
          if (told === 'ready') {
            this.set({ state: 'live', problem: null });
            // What changed while no feed ran is not known: every reader looks again.
            this.roots.forEach((root) => this.tell({ path: root, kind: 'changed' }));
            continue;
          }
          if (told && 'mode' in told) this.set({ mode: told.mode });
          else if (told) this.tell(told);
        }
      });
      child.on('exit', (code) => this.ended(generation, `the change feed ended (exit ${code ?? 'by signal'})`));
      child.on('error', (error) => this.ended(generation, `the change feed could not start: ${error.message}`));
    } catch (error) {
      this.ended(generation, `the feed could not start: ${(error as Error).message}`);
    }
  }

  /** The feed ended under a live connection: readers poll until it runs again. */
  private ended(generation: number, why: string): void {
    // Told once a child (its exit, its error, a line too long): its last lines may still come, and are read.
    if (generation !== this.generation || this.closed || this.child === undefined) return;
    this.child = undefined;
    this.set({ state: 'down', problem: this.host.status.state === 'connected' ? why : null });
    if (this.host.status.state === 'connected') this.restartTimer = setTimeout(() => this.start(), RESTART_MS);
  }

  close(): void {
    this.closed = true;
    this.stopChild();
    this.subscribers.clear();
  }
}

/**
 * A host's one connection with its change feed, the feed started on each new connection (other news, a
 * latency measured, does not restart it).
 */
export function hostWithFeed(alias: string, options: RemoteHostOptions, feedOptions: ConstructorParameters<typeof HostFeed>[1] = {}): { host: RemoteHost; feed: HostFeed } {
  let was: RemoteHost['status']['state'] = 'connecting';
  // Connecting starts at once, but its first status comes after an await: `made` is there by then.
  const host: RemoteHost = new RemoteHost(alias, {
    ...options,
    onStatus: (status) => {
      if (status.state === 'connected' && was !== 'connected') made.feed.connected();
      was = status.state;
      options.onStatus?.(status);
    },
  });
  const made = { host, feed: new HostFeed(host, feedOptions) };
  return made;
}
