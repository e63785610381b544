import { posix } from 'node:path';
import type { CellFs } from '../../runners';
import type { Change } from '../changes';

/** What one read of a cell looked at: the files it read or stat'd, the folders it listed. */
export interface Looked {
  files: Set<string>;
  dirs: Set<string>;
}

/** A file system that notes what is looked at through it, from each `begin()` on. */
export class LookingFs implements CellFs {
  private looked: Looked = { files: new Set(), dirs: new Set() };

  constructor(private readonly inner: CellFs) {}

  /** Starts a new note (one read of a cell); the returned one fills as the read goes. */
  begin(): Looked {
    this.looked = { files: new Set(), dirs: new Set() };
    return this.looked;
  }

  list(dir: string) {
    this.looked.dirs.add(posix.normalize(dir));
    return this.inner.list(dir);
  }

  stat(path: string) {
    this.looked.files.add(posix.normalize(path));
    return this.inner.stat(path);
  }

  read(path: string, maxBytes: number) {
    this.looked.files.add(posix.normalize(path));
    return this.inner.read(path, maxBytes);
  }

  readFrom(path: string, position: number, maxBytes: number) {
    this.looked.files.add(posix.normalize(path));
    return this.inner.readFrom(path, position, maxBytes);
  }

  readBytes(path: string, position: number, maxBytes: number, into?: Buffer) {
    this.looked.files.add(posix.normalize(path));
    return this.inner.readBytes(path, position, maxBytes, into);
  }
}

/**
 * How a change concerns what a read found: `appended` when a file it looked at was written to (a log
 * growing: its reader may wait for a quiet moment); `changed` when a file or folder it looked at was
 * created or removed, or a folder it listed gained or lost an entry (a file written to in a listed folder
 * changes no listing); null when it does not concern it.
 */
export function kindFor(looked: Looked, change: Change): 'appended' | 'changed' | null {
  if (looked.files.has(change.path)) return change.kind === 'modified' || change.kind === 'changed' ? 'appended' : 'changed';
  if (looked.dirs.has(change.path)) return 'changed';
  return change.kind !== 'modified' && looked.dirs.has(posix.dirname(change.path)) ? 'changed' : null;
}
