import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface Entry {
  name: string;
  kind: 'file' | 'dir' | 'other';
}

export interface FileInfo {
  size: number;
  mtimeMs: number;
  kind: Entry['kind'];
}

/**
 * How adapters read a cell. The local implementation uses node:fs; a remote host implements the same
 * three calls, so every adapter works on both.
 */
export interface CellFs {
  /** The folder's entries, or null when it cannot be listed (missing, not a folder, unreadable). */
  list(dir: string): Promise<Entry[] | null>;
  stat(path: string): Promise<FileInfo | null>;
  /** At most `maxBytes` of the file from its start; null when it cannot be read. */
  read(path: string, maxBytes: number): Promise<{ text: string; truncated: boolean } | null>;
}

function kindOf(info: { isFile(): boolean; isDirectory(): boolean }): Entry['kind'] {
  return info.isFile() ? 'file' : info.isDirectory() ? 'dir' : 'other';
}

export const localFs: CellFs = {
  async list(dir) {
    try {
      const entries = await readdir(dir, { withFileTypes: true });
      return Promise.all(
        entries.map(async (entry) => {
          // A symlink counts as what it points to; a dangling one as 'other'.
          if (!entry.isSymbolicLink()) return { name: entry.name, kind: kindOf(entry) };
          const target = await stat(join(dir, entry.name)).catch(() => null);
          return { name: entry.name, kind: target ? kindOf(target) : 'other' };
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
  async read(path, maxBytes) {
    let handle;
    try {
      handle = await open(path, 'r');
      const size = (await handle.stat()).size;
      const length = Math.min(size, maxBytes);
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, 0);
      return { text: buffer.subarray(0, bytesRead).toString('utf8'), truncated: size > maxBytes };
    } catch {
      return null;
    } finally {
      await handle?.close();
    }
  },
};
