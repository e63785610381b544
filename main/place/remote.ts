// An SSH host as a place: its files over SFTP, their changes from its feed, its programs over exec
// channels, all on its one connection.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { JsonReader } from '../../runners';
import { JsonlCache } from '../../runners/common/jsonl-cache';
import type { RemoteHost } from '../ssh/host';
import { sftpFile, sftpFs, sftpRange, sftpRealpath, sftpSource } from '../ssh/sftp-fs';
import type { HostFeed } from '../ssh/feed';
import { SnapshotFs, snapshotCommand } from '../ssh/snapshot';
import type { ByteSource } from '../tail/source';
import { shellQuote } from '../../shared/quote';
import { hostPresence } from '../../shared/presence';
import { HostUnavailableError } from '../../shared/errors';
import type { HostContext } from './context';

/** How long a host may take to connect before a script for it gives up. */
const CONNECT_MS = 20_000;

/** Frames and videos of remote cells are fetched whole; larger files are not served. */
const MAX_MEDIA_BYTES = 64 << 20;

/**
 * A read that failed because the connection dropped under it says so, rather than as a problem of the file:
 * also when the host is connected again by the time the old channel's failure arrives.
 */
function unavailableWhenDropped(host: RemoteHost, source: ByteSource): ByteSource {
  const channel = () => {
    try {
      return host.sftp();
    } catch {
      return null;
    }
  };
  const guard = async <T>(read: () => Promise<T>): Promise<T> => {
    const before = channel();
    try {
      return await read();
    } catch (error) {
      if (hostPresence(host.status.state) !== 'live') throw new HostUnavailableError(`${host.alias} is ${host.status.state}`);
      if (channel() !== before) throw new HostUnavailableError(`${host.alias} reconnected during the read`);
      throw error;
    }
  };
  return { stat: () => guard(() => source.stat()), read: (position, length) => guard(() => source.read(position, length)) };
}

/**
 * A cell on an SSH host, reached over the host's one connection (SFTP for files), its changes told by the
 * host's feed. Never writes there.
 */
export function remoteHostContext(host: RemoteHost, feed: HostFeed, json = new JsonReader(sftpFs(() => host.sftp()))): HostContext {
  const fs = sftpFs(() => host.sftp());
  const jsonl = new JsonlCache();
  /**
   * A file of the cell at `dir`, resolved on the host (links included) and refused outside the cell: a run
   * that planted `leak.txt -> /secret` gets nothing. One request set a file, its handle closed after: a
   * follower's source (held open, read ahead) is for logs.
   */
  const fetch = async (dir: string, inside: string): Promise<Buffer | null> => {
    let channel;
    try {
      channel = host.sftp();
    } catch {
      return null;
    }
    const [cell, file] = await Promise.all([sftpRealpath(channel, dir), sftpRealpath(channel, posix.join(dir, inside))]);
    if (!cell || !file || !file.startsWith(`${cell === '/' ? '' : cell}/`)) return null;
    return sftpFile(channel, file, MAX_MEDIA_BYTES);
  };
  /** The host's connection up; a host not connected within CONNECT_MS rejects, saying why. */
  const connected = async (): Promise<void> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${host.alias} did not connect in ${CONNECT_MS / 1000} s (${host.status.problem?.message ?? host.status.state})`)), CONNECT_MS)));
    await Promise.race([host.ready(), late]).finally(() => clearTimeout(timer));
  };
  return {
    host: host.alias,
    connection: () => ({ presence: hostPresence(host.status.state), problem: host.status.problem?.message ?? null }),
    ready: () => host.ready(),
    read: () => ({ fs, json, jsonl, now: Date.now(), host: host.alias }),
    source(path) {
      const source = sftpSource(() => host.sftp(), path);
      return {
        ...unavailableWhenDropped(host, source),
        // A file created or removed at the path (a log rotated away) is opened afresh before it is read.
        watch: (changed) => feed.subscribe(path, (change) => (change.kind !== 'modified' && source.reopen(), changed()), false),
      };
    },
    async watch(dir, onChange) {
      const stop = feed.subscribe(dir, onChange);
      const release = feed.include(dir);
      return async () => (stop(), release());
    },
    live: () => feed.live(),
    async media(dir, relative) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(relative);
      } catch {
        return null;
      }
      const inside = posix.normalize(`/${decoded}`);
      if (decoded.includes('\0')) return null;
      const bytes = await fetch(dir, inside);
      return bytes ? { bytes, name: inside } : null;
    },
    async localCopy(dir, relatives) {
      const local = await mkdtemp(join(tmpdir(), `cellwatch-${host.alias}-`));
      try {
        for (const relative of relatives) {
          const inside = posix.normalize(`/${relative}`);
          const bytes = await fetch(dir, inside);
          if (!bytes) continue;
          await mkdir(dirname(join(local, inside)), { recursive: true });
          await writeFile(join(local, inside), bytes);
        }
      } catch (error) {
        await rm(local, { recursive: true, force: true });
        throw error;
      }
      return { dir: local, release: () => rm(local, { recursive: true, force: true }) };
    },
    async exec(command, args) {
      await connected();
      return host.exec(shellQuote([command, ...args]));
    },
    spawn: (command, args) => host.spawn(command, args),
    async snapshot(dir, depth) {
      return new SnapshotFs((await host.exec(snapshotCommand(dir, depth))).stdout, dir, depth, fs, sftpRange(() => host.sftp()));
    },
  };
}
