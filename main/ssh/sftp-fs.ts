import type { FileEntry, SFTPWrapper, Stats } from 'ssh2';
import { asText, MAX_ENTRIES, MORE_ENTRIES, type CellFs, type Entry, type FileInfo } from '../../runners';
import type { ByteSource } from '../tail/source';
import { append } from '../../shared/arrays';

const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const S_IFLNK = 0o120000;

function kindOf(mode: number): Entry['kind'] {
  const type = mode & S_IFMT;
  return type === S_IFREG ? 'file' : type === S_IFDIR ? 'dir' : 'other';
}

const statOf = (sftp: SFTPWrapper, path: string) => new Promise<Stats | null>((resolve) => sftp.stat(path, (error, stats) => resolve(error ? null : stats)));

/**
 * Runs an SFTP call made from another's callback: when the connection died in between (its requests are
 * then answered with errors), the call throws rather than answering, and `failed` hears that instead.
 */
function attempt(call: () => void, failed: (error: Error) => void): void {
  try {
    call();
  } catch (error) {
    failed(error as Error);
  }
}

/** Closes a handle, if the channel still can; a connection gone took its handles with it. */
function closeQuietly(sftp: SFTPWrapper, handle: Buffer, then: () => void = () => undefined): void {
  attempt(() => sftp.close(handle, () => then()), () => then());
}

function readRange(sftp: SFTPWrapper, path: string, position: number, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    attempt(() => sftp.open(path, 'r', (error, handle) => {
      if (error) return reject(error);
      const buffer = Buffer.alloc(length);
      let done = 0;
      const next = () => {
        if (done >= length) return finish();
        attempt(() => sftp.read(handle, buffer, done, length - done, position + done, (readError, bytesRead) => {
          if (readError) return closeQuietly(sftp, handle, () => reject(readError));
          if (bytesRead === 0) return finish();
          done += bytesRead;
          next();
        }), reject);
      };
      const finish = () => closeQuietly(sftp, handle, () => resolve(buffer.subarray(0, done)));
      next();
    }), reject);
  });
}

/** SFTP's statuses: the end of a listing or a file, and a path that is not there. */
const EOF = 1;
const NO_SUCH_FILE = 2;
/** The SFTP status of a failed call (ssh2 sets it as the error's `code`). */
const statusOf = (error: unknown) => (error as { code?: number } | null | undefined)?.code;

/**
 * A folder's entries, null when it cannot be listed. Opened, read and closed here, each call guarded:
 * ssh2's readdir of a path closes its handle from a callback of its own, which throws out of the
 * channel's end when the connection is torn down under the listing.
 */
function readDir(sftp: SFTPWrapper, dir: string): Promise<FileEntry[] | null> {
  return new Promise((resolve) => {
    const failed = () => resolve(null);
    attempt(() => sftp.opendir(dir, (error, handle) => {
      if (error) return resolve(null);
      const entries: FileEntry[] = [];
      const done = () => closeQuietly(sftp, handle, () => resolve(entries.filter((e) => e.filename !== '.' && e.filename !== '..')));
      const next = () =>
        attempt(() => sftp.readdir(handle, (readError: Error | undefined, list: FileEntry[]) => {
          if (statusOf(readError) === EOF) return done();
          if (readError) return closeQuietly(sftp, handle, failed);
          append(entries, list);
          // Past the limit, the rest of a huge folder is not fetched: said by the MORE_ENTRIES entry.
          if (entries.length > MAX_ENTRIES + 2) return done();
          next();
        }), failed);
      next();
    }), failed);
  });
}

/** A whole regular file of at most `maxBytes`, read and its handle closed; null when there is no such file. */
/** The path with every link resolved, as the host resolves it; null when it does not exist or cannot be asked. */
export function sftpRealpath(sftp: SFTPWrapper, path: string): Promise<string | null> {
  return new Promise((resolve) => {
    try {
      sftp.realpath(path, (error, resolved) => resolve(error ? null : resolved));
    } catch {
      resolve(null); // the connection went in between
    }
  });
}

export async function sftpFile(sftp: SFTPWrapper, path: string, maxBytes: number): Promise<Buffer | null> {
  const stats = await statOf(sftp, path);
  if (!stats || kindOf(stats.mode) !== 'file' || stats.size > maxBytes) return null;
  return readRange(sftp, path, 0, stats.size);
}

/** A cell's files on an SSH host, read over SFTP: the adapters read remote cells through this. */
export function sftpFs(sftp: () => SFTPWrapper): CellFs {
  return {
    async list(dir) {
      const list = await readDir(sftp(), dir);
      if (!list) return null;
      const entries = await Promise.all(
        list.slice(0, MAX_ENTRIES).map(async (e): Promise<Entry> => {
          if ((e.attrs.mode & S_IFMT) !== S_IFLNK) return { name: e.filename, kind: kindOf(e.attrs.mode) };
          const target = await statOf(sftp(), `${dir}/${e.filename}`);
          return { name: e.filename, kind: target ? kindOf(target.mode) : 'other' };
        }),
      );
      return list.length > MAX_ENTRIES ? [...entries, MORE_ENTRIES] : entries;
    },
    async stat(path): Promise<FileInfo | null> {
      const stats = await statOf(sftp(), path);
      return stats ? { size: stats.size, mtimeMs: stats.mtime * 1000, kind: kindOf(stats.mode) } : null;
    },
    read(path, maxBytes) {
      return this.readFrom(path, 0, maxBytes);
    },
    async readFrom(path, position, maxBytes) {
      return asText(await this.readBytes(path, position, maxBytes));
    },
    async readBytes(path, position, maxBytes) {
      const stats = await statOf(sftp(), path);
      if (!stats || kindOf(stats.mode) !== 'file') return null;
      const length = Math.max(0, Math.min(stats.size - position, maxBytes));
      const bytes = await sftpRange(sftp)(path, position, length);
      return bytes ? { bytes, truncated: stats.size - position > maxBytes } : null;
    },
  };
}

/** Bytes [position, position + length) of a file already known to be one (a snapshot listed it), with no stat first; null when it cannot be read. */
export function sftpRange(sftp: () => SFTPWrapper): (path: string, position: number, length: number) => Promise<Buffer | null> {
  return (path, position, length) => readRange(sftp(), path, position, length).catch(() => null);
}

/** A real size check (truncation, the first look) every this many polls; the others only read ahead. */
const FSTAT_EVERY = 16;
const READ_AHEAD = 256 * 1024;

type Handle = { channel: SFTPWrapper; handle: Buffer; identity: number | null };

/** How many first bytes of a remote file stand for its identity; a smaller file has none yet. */
const IDENTITY_BYTES = 64;

/** FNV-1a of the bytes: a number to compare, not a secret. */
function hashOf(bytes: Buffer): number {
  let hash = 0x811c9dc5;
  for (const byte of bytes) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}

/**
 * A remote file as a follower's byte source, cheap on the wire: one open handle, and each poll a single
 * read at the offset the follower reached (its reply is the new bytes, or EOF), with a real size check
 * only every few polls. That check opens the file afresh: a log rotated away (renamed, a new file in its
 * place) is then the new file, which the follower reads from its start. `sftp` is asked each time, so a
 * reconnect hands in the new channel.
 */
export function sftpSource(sftp: () => SFTPWrapper, path: string): ByteSource & { reopen(): void } {
  let open: Handle | null = null;
  let ahead: { position: number; bytes: Buffer } | null = null;
  let next = 0;
  let polls = 0;
  /** A handle just opened: its first poll checks the real size, not the read-ahead from an offset of another file. */
  let fresh = false;

  async function handle(): Promise<Handle | null> {
    const channel = sftp();
    if (open?.channel === channel) return open;
    open = null;
    ahead = null;
    // No such file is an answer; any other failure (a channel dying under the call) is the follower's to retry.
    const opened = await new Promise<Buffer | null>((resolve, reject) =>
      channel.open(path, 'r', (error, h) => (!error ? resolve(h) : statusOf(error) === NO_SUCH_FILE ? resolve(null) : reject(error))),
    );
    if (!opened) return null;
    const h: Handle = { channel, handle: opened, identity: null };
    // SFTP tells no inode: the file's first bytes stand for it, so a log rotated away is told from its successor.
    const head = await readAt(h, 0, IDENTITY_BYTES);
    h.identity = head.length === IDENTITY_BYTES ? hashOf(head) : null;
    open = h;
    fresh = true;
    return open;
  }

  function readAt(h: Handle, position: number, length: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const buffer = Buffer.alloc(length);
      h.channel.read(h.handle, buffer, 0, length, position, (error, bytesRead) => {
        // EOF is the usual answer when nothing was appended.
        if (error && statusOf(error) !== EOF) return reject(error);
        resolve(buffer.subarray(0, error ? 0 : bytesRead));
      });
    });
  }

  return {
    /** The file was replaced or removed (a feed said so): the next stat opens it afresh. */
    reopen() {
      const stale = open;
      open = null;
      ahead = null;
      // Closed once reads in flight on it have had their answer.
      if (stale) setTimeout(() => closeQuietly(stale.channel, stale.handle), 5000).unref();
    },
    async stat() {
      if (polls % FSTAT_EVERY === 0 && open) {
        const stale = open;
        open = null;
        closeQuietly(stale.channel, stale.handle);
      }
      const h = await handle();
      if (!h) return null;
      if (polls++ % FSTAT_EVERY === 0 || fresh) {
        fresh = false;
        const stats = await new Promise<Stats>((resolve, reject) => h.channel.fstat(h.handle, (error, st) => (error ? reject(error) : resolve(st))));
        ahead = null;
        return { size: stats.size, identity: h.identity };
      }
      const bytes = await readAt(h, next, READ_AHEAD);
      ahead = { position: next, bytes };
      return { size: next + bytes.length, identity: h.identity };
    },
    async read(position, length) {
      const start = ahead ? position - ahead.position : -1;
      if (ahead && start >= 0 && start + length <= ahead.bytes.length) {
        next = position + length;
        return ahead.bytes.subarray(start, start + length);
      }
      const h = await handle();
      if (!h) return Buffer.alloc(0);
      const bytes = await readAt(h, position, length);
      next = position + bytes.length;
      return bytes;
    },
  };
}
