import { watch } from 'node:fs';
import { open, stat } from 'node:fs/promises';

export interface SourceStat {
  size: number;
  /** Identity of the file (inode), when the source can tell; a new one means the file was replaced. */
  identity: number | null;
}

/** Where a follower's bytes come from: a local file, or a file on an SSH host. */
export interface ByteSource {
  /** Null when the file is not there (yet). */
  stat(): Promise<SourceStat | null>;
  read(position: number, length: number): Promise<Buffer>;
  /** Calls `changed` on every change the OS reports; returns the stop function. Local files only. */
  watch?(changed: () => void): () => void;
}

export function localSource(path: string): ByteSource {
  return {
    async stat() {
      const info = await stat(path).catch(() => null);
      return info?.isFile() ? { size: info.size, identity: info.ino } : null;
    },
    async read(position, length) {
      const handle = await open(path, 'r');
      try {
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buffer, 0, length, position);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
    watch(changed) {
      try {
        const watcher = watch(path, { persistent: false }, changed);
        watcher.on('error', () => watcher.close());
        return () => watcher.close();
      } catch {
        // Not there yet: the cell's folder watcher sees it appear.
        return () => undefined;
      }
    },
  };
}
