/** A change of a file or folder, as a watcher (the OS here, a host's feed over SSH) tells it. */
export interface Change {
  path: string;
  /** modified: written to; created; gone; changed: new or written to (a watcher that cannot tell). */
  kind: 'modified' | 'created' | 'gone' | 'changed';
}

/** Past this many, the paths changed in a cell are not kept: it is read as if anything had changed. */
const MAX_CHANGED = 1000;

/**
 * The paths a watch saw change in a cell since its last read, with `path` added: null (anything may have
 * changed) when `paths` is, or when past MAX_CHANGED.
 */
export function addChanged(paths: Set<string> | null, path: string): Set<string> | null {
  return paths && paths.size < MAX_CHANGED ? paths.add(path) : null;
}
