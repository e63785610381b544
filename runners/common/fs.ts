import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, statSync, type Stats } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface Entry {
  name: string;
  /** What it is, or for a symbolic link what it points to. */
  kind: 'file' | 'dir' | 'other';
  /** True for a symbolic link. */
  link?: boolean;
  /** Why a link's target could not be looked at (a loop, a permission): a problem of this entry alone. */
  error?: string;
}

/** A symbolic link's entry from its target's stat: what it points to, 'other' when dangling (null), or why it cannot be known. */
function linkEntry(name: string, target: Stats | null | NodeJS.ErrnoException): Entry {
  if (target === null) return { name, kind: 'other', link: true };
  if (!(target instanceof Error)) return { name, kind: kindOf(target), link: true };
  const error = target.code === 'ELOOP' ? 'a link that leads back to itself (ELOOP)' : `cannot be looked at (${target.code ?? target.message})`;
  return { name, kind: 'other', link: true, error };
}

/** A link's target: its stat, null when there is none, or the error that says why it cannot be looked at. */
const orError = (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : error);

export interface FileInfo {
  size: number;
  mtimeMs: number;
  kind: Entry['kind'];
}

export interface FileText {
  text: string;
  /** True when the file holds more than was read. */
  truncated: boolean;
}

/**
 * How adapters read a cell. The local implementations use node:fs; a remote host implements the same
 * calls, so every adapter works on both. Only regular files are ever opened: a FIFO or a device in a
 * cell must not block a read.
 */
export interface CellFs {
  /** The folder's entries, or null when it cannot be listed (missing, not a folder, unreadable). */
  list(dir: string): Promise<Entry[] | null>;
  stat(path: string): Promise<FileInfo | null>;
  /** At most `maxBytes` of the file from its start; null when it cannot be read or is no regular file. */
  read(path: string, maxBytes: number): Promise<FileText | null>;
  /** At most `maxBytes` of the file from byte `position`: how logs are read on from where they were. */
  readFrom(path: string, position: number, maxBytes: number): Promise<FileText | null>;
}

export function kindOf(info: { isFile(): boolean; isDirectory(): boolean }): Entry['kind'] {
  return info.isFile() ? 'file' : info.isDirectory() ? 'dir' : 'other';
}

/** Opening without blocking: a FIFO opened for reading would otherwise wait for a writer. */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

export const localFs: CellFs = {
  async list(dir) {
    try {
      const entries = await readdir(dir, { withFileTypes: true });
      return Promise.all(
        entries.map(async (entry) => {
          // A symlink counts as what it points to.
          if (!entry.isSymbolicLink()) return { name: entry.name, kind: kindOf(entry) };
          return linkEntry(entry.name, await stat(join(dir, entry.name)).catch(orError));
        }),
      );
    } catch {
      return null;
    }
  },
  async stat(path) {
    try {
      const info = await stat(path);
      return { size: info.size, mtimeMs: info.mtimeMs, kind: kindOf(info) };
    } catch {
      return null;
    }
  },
  read(path, maxBytes) {
    return this.readFrom(path, 0, maxBytes);
  },
  async readFrom(path, position, maxBytes) {
    let handle;
    try {
      handle = await open(path, READ_FLAGS);
      const info = await handle.stat();
      if (!info.isFile()) return null;
      const length = Math.max(0, Math.min(info.size - position, maxBytes));
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      return { text: buffer.subarray(0, bytesRead).toString('utf8'), truncated: info.size - position > maxBytes };
    } catch {
      return null;
    } finally {
      await handle?.close();
    }
  },
};

/** Told what every path a file system call looked at was (null: not there). */
export type Observer = (path: string, info: Stats | null) => void;

/**
 * The same calls done synchronously, for worker threads that read many small files: a synchronous call
 * costs microseconds where a promise round trip through the thread pool costs tens of them. Never on
 * the main thread, where a slow disk would stall everything.
 */
export function syncLocalFs(observe: Observer = () => undefined): CellFs {
  const stat = (path: string) => {
    const info = statSync(path, { throwIfNoEntry: false });
    observe(path, info ?? null);
    return info;
  };
  return {
    async list(dir) {
      try {
        stat(dir);
        return readdirSync(dir, { withFileTypes: true }).map((entry) => {
          if (!entry.isSymbolicLink()) return { name: entry.name, kind: kindOf(entry) };
          let target: Stats | null | NodeJS.ErrnoException;
          try {
            target = statSync(join(dir, entry.name), { throwIfNoEntry: false }) ?? null;
          } catch (error) {
            target = orError(error as NodeJS.ErrnoException);
          }
          return linkEntry(entry.name, target);
        });
      } catch {
        return null;
      }
    },
    async stat(path) {
      try {
        const info = stat(path);
        return info ? { size: info.size, mtimeMs: info.mtimeMs, kind: kindOf(info) } : null;
      } catch {
        return null;
      }
    },
    read(path, maxBytes) {
      return this.readFrom(path, 0, maxBytes);
    },
    async readFrom(path, position, maxBytes) {
      let fd: number | undefined;
      try {
        fd = openSync(path, READ_FLAGS);
        const info = fstatSync(fd);
        observe(path, info);
        if (!info.isFile()) return null;
        const length = Math.max(0, Math.min(info.size - position, maxBytes));
        const buffer = Buffer.alloc(length);
        const bytesRead = readSync(fd, buffer, 0, length, position);
        return { text: buffer.subarray(0, bytesRead).toString('utf8'), truncated: info.size - position > maxBytes };
      } catch {
        observe(path, null);
        return null;
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
    },
  };
}
