// The logs of one folder followed as they grow, for an open cell (its streams, its GPU samples) and for
// `cellwatch tail`: one Follower a file, over the place's byte source; a change in the folder goes to the
// follower of its file; and the followers are polled too, since a watcher can miss a change (a network
// disk, a file made as it starts) and a host's feed can be down: often while the place tells no changes
// as they happen, once a second while it does. A log that has not grown for 60 polls (a minute while the
// place tells changes) is polled at every fifteenth only: `cellwatch tail` of a long run follows the logs
// of thousands of ended episodes.
import { join, relative, sep } from 'node:path';
import type { HostContext } from '../place/context';
import { Follower, type FollowStart } from './follower';
import type { TailChunk } from './lines';

/** How often followers are polled while the place tells no changes (a host's feed down)... */
const POLL_DOWN_MS = 250;
/** ...and, in ticks of that, while it does. */
const LIVE_EVERY = 4;
/** A log that grew within this many polls is polled at each; the others at every QUIET_EVERY-th. */
export const ACTIVE_POLLS = 60;
export const QUIET_EVERY = 15;

export class FollowSet {
  private readonly followers = new Map<string, Follower>();
  private timer: NodeJS.Timeout | undefined;
  private polls = 0;
  /** Each follower's offset as the last poll found it, and the poll it last grew by. */
  private readonly grown = new WeakMap<Follower, { offset: number; poll: number }>();

  constructor(
    private readonly context: HostContext,
    readonly folder: string,
  ) {}

  private follower(file: string, onChunk: (chunk: TailChunk) => void, start?: FollowStart): Follower {
    return new Follower(this.context.source(join(this.folder, file)), file, onChunk, start);
  }

  has(file: string): boolean {
    return this.followers.has(file);
  }

  /** Follows `file` (relative to the folder): read once from `start` (what it finds goes to `onChunk`, as all that comes later), then watched. */
  async follow(file: string, onChunk: (chunk: TailChunk) => void, start?: FollowStart): Promise<void> {
    const follower = this.follower(file, onChunk, start);
    this.followers.set(file, follower);
    await follower.poll();
    follower.watch();
  }

  /** Reads `file` once from `start`, keeping nothing (a second viewer of a log already followed). */
  readOnce(file: string, onChunk: (chunk: TailChunk) => void, start: FollowStart): Promise<void> {
    return this.follower(file, onChunk, start).poll();
  }

  unfollow(file: string): void {
    this.followers.get(file)?.unwatch();
    this.followers.delete(file);
  }

  /** The file below the folder a changed path is, `/`-separated; null for the folder itself or a path outside it. */
  fileOf(path: string): string | null {
    if (!path.startsWith(`${this.folder}/`)) return null;
    return relative(this.folder, path).split(sep).join('/');
  }

  /** A file that changed (`fileOf` its path): its follower reads on. Whether it has one. */
  route(file: string): boolean {
    const follower = this.followers.get(file);
    if (follower) void follower.poll();
    return follower !== undefined;
  }

  pollAll(): void {
    this.followers.forEach((f) => void f.poll());
  }

  /** One poll: the followers of logs that grew lately, and at every QUIET_EVERY-th all of them. */
  async pollDue(): Promise<void> {
    this.polls++;
    const due: Promise<void>[] = [];
    for (const follower of this.followers.values()) {
      let grown = this.grown.get(follower);
      if (grown?.offset !== follower.offset) {
        // A log first met here has not grown yet: an ended episode's stays quiet.
        grown = { offset: follower.offset, poll: grown ? this.polls : -Infinity };
        this.grown.set(follower, grown);
      }
      if (this.polls % QUIET_EVERY === 0 || this.polls - grown.poll <= ACTIVE_POLLS) due.push(follower.poll());
    }
    await Promise.all(due);
  }

  /** Polls the followers as the place's presence says (see above); `tick` hears each poll, by its count. */
  startPolling(tick: (count: number) => void = () => undefined): void {
    let count = 0;
    this.timer = setInterval(() => {
      count++;
      if (this.context.live() && count % LIVE_EVERY !== 0) return;
      void this.pollDue();
      tick(count);
    }, POLL_DOWN_MS);
  }

  close(): void {
    clearInterval(this.timer);
    this.followers.forEach((f) => f.unwatch());
    this.followers.clear();
  }
}
