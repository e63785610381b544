import { closeSync, constants, fstatSync, opendirSync, openSync, readdirSync, readSync, statSync, type Dirent, type Stats } from 'node:fs';
import { open, opendir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { problem, type Problem } from '../../shared/model';

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

/** A folder's entries past this many are not read: a cell of 600,000 files took 34 s and 900 MB to open. */
export const MAX_ENTRIES = 100_000;

/** Stands after the first MAX_ENTRIES entries of a folder that holds more: said as a problem of the folder. */
// Grouped by hand: a first toLocaleString loads ICU's number formats (10 ms) in every process that loads this.
const MAX_TEXT = String(MAX_ENTRIES).replace(/\B(?=(\d{3})+$)/g, ',');
export const MORE_ENTRIES: Entry = { name: '', kind: 'other', error: `holds more than ${MAX_TEXT} entries; only the first ${MAX_TEXT} are read` };

/**
 * The entries of `dir` that could not be looked at (a link loop), each a warning of its own, and the folder's
 * own when it holds more than is read; the rest are read on. `dir` names the folder in the problems.
 */
export function entryProblems(dir: string, entries: Entry[]): Problem[] {
  return entries.flatMap((entry) => (entry.error ? [problem(entry.name ? join(dir, entry.name) : dir, entry.name ? entry.error : `${dir} ${entry.error}`, { severity: 'warning' })] : []));
}

/** In name order, byte by byte, as readdir gives them (a folder read with opendir comes in the disk's order). */
const byName = (entries: Entry[]) => entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/** A link's target: its stat, null when there is none, or the error that says why it cannot be looked at. */
const orError = (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : error);

function syncLinkEntry(path: string, name: string): Entry {
  try {
    return linkEntry(name, statSync(path, { throwIfNoEntry: false }) ?? null);
  } catch (error) {
    return linkEntry(name, orError(error as NodeJS.ErrnoException));
  }
}

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

export interface FileBytes {
  bytes: Buffer;
  /** True when the file holds more than was read. */
  truncated: boolean;
}

/** Bytes read as UTF-8 text. */
export const asText = (read: FileBytes | null): FileText | null => read && { text: read.bytes.toString('utf8'), truncated: read.truncated };

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
  /** At most `maxBytes` of the file from byte `position`, as text: how logs are read on from where they were. */
  readFrom(path: string, position: number, maxBytes: number): Promise<FileText | null>;
  /**
   * The same as bytes, for a reader that decodes only the few values it needs (a gigabyte of UTF-8 takes
   * seconds to decode). Given `into`, large enough, the bytes may be read into it (valid until it is used
   * again): a gigabyte read into fresh buffers costs as much again in the memory's first touch.
   */
  readBytes(path: string, position: number, maxBytes: number, into?: Buffer): Promise<FileBytes | null>;
}

export function kindOf(info: { isFile(): boolean; isDirectory(): boolean }): Entry['kind'] {
  return info.isFile() ? 'file' : info.isDirectory() ? 'dir' : 'other';
}

/** Opening without blocking: a FIFO opened for reading would otherwise wait for a writer. */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

export const localFs: CellFs = {
  async list(dir) {
    let folder;
    try {
      folder = await opendir(dir, { bufferSize: 256 });
    } catch {
      return null;
    }
    const found: Entry[] = [];
    try {
      for (let entry = await folder.read(); entry; entry = await folder.read()) {
        if (found.length === MAX_ENTRIES) return [...byName(found), MORE_ENTRIES];
        // A symlink counts as what it points to.
        found.push(entry.isSymbolicLink() ? linkEntry(entry.name, await stat(join(dir, entry.name)).catch(orError)) : { name: entry.name, kind: kindOf(entry) });
      }
    } catch {
      return null;
    } finally {
      await folder.close().catch(() => undefined);
    }
    return byName(found);
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
    return asText(await this.readBytes(path, position, maxBytes));
  },
  async readBytes(path, position, maxBytes, into) {
    let handle;
    try {
      handle = await open(path, READ_FLAGS);
      const info = await handle.stat();
      if (!info.isFile()) return null;
      const length = Math.max(0, Math.min(info.size - position, maxBytes));
      const buffer = into && into.length >= length ? into : Buffer.allocUnsafe(length);
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      return { bytes: buffer.subarray(0, bytesRead), truncated: info.size - position > maxBytes };
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
 * A folder no larger than this on disk is read in one call: it cannot hold MAX_ENTRIES (ext4 spends at least
 * 12 bytes an entry, tmpfs 20, btrfs two a name's byte). A larger one, or one whose file system gives no
 * size (0), is read a few entries at a time, and no further than is read: a folder opened costs twice as
 * much that way, and a cold status opens 30,000 of them.
 */
const ONE_CALL_BYTES = 64 * 1024;

/**
 * The same calls done synchronously, for worker threads that read many small files: a synchronous call
 * costs microseconds where a promise round trip through the thread pool costs tens of them. Never on
 * the main thread, where a slow disk would stall everything. `oneCallBytes`: ONE_CALL_BYTES but in tests.
 */
export function syncLocalFs(observe: Observer = () => undefined, oneCallBytes = ONE_CALL_BYTES): CellFs {
  const stat = (path: string) => {
    const info = statSync(path, { throwIfNoEntry: false });
    observe(path, info ?? null);
    return info;
  };
  return {
    async list(dir) {
      let next: () => Dirent | null;
      let close = (): void => undefined;
      try {
        const size = stat(dir)?.size ?? 0;
        if (size > 0 && size <= oneCallBytes) {
          const all = readdirSync(dir, { withFileTypes: true });
          let at = 0;
          next = () => all[at++] ?? null;
        } else {
          const folder = opendirSync(dir, { bufferSize: 256 });
          next = () => folder.readSync();
          close = () => folder.closeSync();
        }
      } catch {
        return null;
      }
      const found: Entry[] = [];
      try {
        for (let entry = next(); entry; entry = next()) {
          if (found.length === MAX_ENTRIES) return [...byName(found), MORE_ENTRIES];
          found.push(entry.isSymbolicLink() ? syncLinkEntry(join(dir, entry.name), entry.name) : { name: entry.name, kind: kindOf(entry) });
        }
      } catch {
        return null;
      } finally {
        close();
      }
      return byName(found);
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
      return asText(await this.readBytes(path, position, maxBytes));
    },
    async readBytes(path, position, maxBytes, into) {
      let fd: number | undefined;
      try {
        fd = openSync(path, READ_FLAGS);
        const info = fstatSync(fd);
        observe(path, info);
        if (!info.isFile()) return null;
        const length = Math.max(0, Math.min(info.size - position, maxBytes));
        const buffer = into && into.length >= length ? into : Buffer.allocUnsafe(length);
        const bytesRead = readSync(fd, buffer, 0, length, position);
        return { bytes: buffer.subarray(0, bytesRead), truncated: info.size - position > maxBytes };
      } catch {
        observe(path, null);
        return null;
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
    },
  };
}
