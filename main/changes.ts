/** A change of a file or folder, as a watcher (the OS here, a host's feed over SSH) tells it. */
export interface Change {
  path: string;
  /** modified: written to; created; gone; changed: new or written to (a watcher that cannot tell). */
  kind: 'modified' | 'created' | 'gone' | 'changed';
}
