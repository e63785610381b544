/** A change of a file or folder, as a watcher (the OS here, a host's feed over SSH) tells it. */
export interface Change {
  path: string;
  /** modified: written to; created; gone; changed: new or written to (a watcher that cannot tell). */
  kind: 'modified' | 'created' | 'gone' | 'changed';
}

/** Past this many, the paths changed in a cell are not kept: it is read as if anything had changed. */
const MAX_CHANGED = 1000;

/** The paths a watch saw change in one cell since its last read began, or that anything may have changed. */
export class ChangedPaths {
  private paths: Set<string> | null;

  /** `anything`: from the start, as if anything may have changed. */
  constructor(anything = false) {
    this.paths = anything ? null : new Set();
  }

  add(path: string): void {
    this.paths = this.paths && this.paths.size < MAX_CHANGED ? this.paths.add(path) : null;
  }

  anything(): void {
    this.paths = null;
  }

  /** For a read beginning now: what changed (null: anything may have); nothing has, from now on. */
  take(): string[] | null {
    const taken = this.paths && [...this.paths];
    this.paths = new Set();
    return taken;
  }
}

/** Cells to read again, each with what a watch saw change in it. */
export class ChangedCells {
  private readonly cells = new Map<string, ChangedPaths>();

  get size(): number {
    return this.cells.size;
  }

  /** `path` changed in the cell at `dir`; without a path, anything in it may have. */
  mark(dir: string, path?: string): void {
    let changed = this.cells.get(dir);
    if (!changed) this.cells.set(dir, (changed = new ChangedPaths()));
    if (path === undefined) changed.anything();
    else changed.add(path);
  }

  /** Each cell marked, with what changed in it (null: anything may have); none is marked from now on. */
  take(): [string, string[] | null][] {
    const taken = [...this.cells].map(([dir, changed]) => [dir, changed.take()] as [string, string[] | null]);
    this.cells.clear();
    return taken;
  }
}
