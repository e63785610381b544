// The OS watch of a folder tree: a root of thousands of cells, or an open cell's folder. Where the
// platform watches a tree at once (macOS, Windows), one recursive watch; on Linux, whose inotify watches
// folder by folder, one watch per folder, added as folders appear and dropped as they go. A change costs
// one call, whatever the folder holds. chokidar, which both used, stats and remembers every file: for
// 10,000 cells that was 8 s and 170 MB of heap before the first change could be seen (this is under a
// second and about 20 MB), and it lists a folder again, each entry statted, at each change in it: a
// frame a second written beside 5,000 others kept a core busy.
import { watch as fsWatch, type FSWatcher } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Change } from '../changes';
import { mapLimited, PARALLEL_IO } from '../concurrency';

export interface TreeWatchOptions {
  /** How many folders below the root are watched. */
  depth: number;
  /** Paths whose changes are never told, nor their folders watched. */
  ignored: (path: string) => boolean;
  /**
   * A change at or below this path: a file written (`modified`), or a file or folder made, moved or gone
   * (`changed`: the OS does not say which).
   */
  onChange: (path: string, kind: Change['kind']) => void;
  /** What stopped the watch (it is closed then): most often the OS's limit on watches. */
  onFailure: (error: NodeJS.ErrnoException) => void;
  /** The OS call, replaced in tests to reach the OS's limits. */
  watch?: typeof fsWatch;
  /** Whether the platform watches a tree with one watch (default: not on Linux). */
  recursive?: boolean;
}

export interface TreeWatcher {
  close(): void;
}

const NATIVE_RECURSIVE = process.platform === 'darwin' || process.platform === 'win32';

/** What an OS event says: 'change' is a file written to; 'rename' anything made, moved or removed. */
const kindOf = (event: string): Change['kind'] => (event === 'change' ? 'modified' : 'changed');

/** Watches the tree below `root`, resolving once every folder is watched. */
export async function watchTree(root: string, options: TreeWatchOptions): Promise<TreeWatcher> {
  const watch = options.watch ?? fsWatch;
  if (options.recursive ?? NATIVE_RECURSIVE) {
    // How deep the folder holding `path` is: what the depth bounds, as one watch a folder would.
    const levels = (path: string) => relative(root, path).split(sep).length - 1;
    const watcher = watch(root, { recursive: true }, (event, name) => {
      const path = name ? join(root, name.toString()) : root;
      if (levels(path) <= options.depth && !options.ignored(path)) options.onChange(path, kindOf(event));
    });
    watcher.on('error', (error) => (watcher.close(), options.onFailure(error as NodeJS.ErrnoException)));
    return { close: () => watcher.close() };
  }
  return new FolderWatches(root, options, watch).start();
}

class FolderWatches implements TreeWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private stopped = false;

  constructor(
    private readonly root: string,
    private readonly options: TreeWatchOptions,
    private readonly watch: typeof fsWatch,
  ) {}

  async start(): Promise<this> {
    await this.add(this.root, 0);
    return this;
  }

  /** Watches `dir` and the folders below it, down to the depth. */
  private async add(dir: string, depth: number): Promise<void> {
    if (this.stopped || this.watchers.has(dir)) return;
    try {
      const watcher = this.watch(dir, (event, name) => this.changed(dir, depth, event, name?.toString() ?? null));
      watcher.on('error', (error) => this.lost(dir, error as NodeJS.ErrnoException));
      this.watchers.set(dir, watcher);
    } catch (error) {
      this.lost(dir, error as NodeJS.ErrnoException);
      return;
    }
    if (depth >= this.options.depth) return;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    const folders = [];
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (this.options.ignored(path)) continue;
      if (entry.isDirectory() || (entry.isSymbolicLink() && (await stat(path).catch(() => null))?.isDirectory())) folders.push(path);
    }
    await mapLimited(folders, PARALLEL_IO, (path) => this.add(path, depth + 1));
  }

  private changed(dir: string, depth: number, event: string, name: string | null): void {
    const path = name === null ? dir : join(dir, name);
    if (this.stopped || this.options.ignored(path)) return;
    this.options.onChange(path, kindOf(event));
    // Only a 'rename' (made, moved or removed) can be a folder coming or going.
    if (event !== 'rename' || path === dir || depth >= this.options.depth) return;
    void stat(path).then(
      async (info) => {
        if (!info.isDirectory() || this.watchers.has(path)) return;
        await this.add(path, depth + 1);
        // What was written in it before its watch began is told now, once it can no longer be missed.
        if (!this.stopped) this.options.onChange(path, 'changed');
      },
      () => this.drop(path),
    );
  }

  /** A folder that cannot be watched: gone or unreadable, it is left out; anything else stops the watch. */
  private lost(dir: string, error: NodeJS.ErrnoException): void {
    if (error.code === 'ENOENT' || error.code === 'EACCES' || error.code === 'EPERM' || error.code === 'ENOTDIR') {
      this.drop(dir);
      return;
    }
    if (this.stopped) return;
    this.close();
    this.options.onFailure(error);
  }

  /** A folder that went: its watch and those below it end. */
  private drop(dir: string): void {
    if (!this.watchers.has(dir)) return;
    for (const [path, watcher] of this.watchers) {
      if (path === dir || path.startsWith(`${dir}${sep}`)) {
        watcher.close();
        this.watchers.delete(path);
      }
    }
  }

  close(): void {
    this.stopped = true;
    this.watchers.forEach((watcher) => watcher.close());
    this.watchers.clear();
  }
}
