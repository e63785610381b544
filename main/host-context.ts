// One way to reach a place, this machine or an SSH host: its files, their changes, and the programs run
// there. Every operation (reading, following, frames, media, recordings, compare, paired tests, GPU
// sampling, launch scripts) goes through a HostContext, so a remote cell does all a local one does.
import type { EventName } from 'chokidar/handler.js';
import type { Change } from './changes';
import { JsonlCache } from '../runners/common/jsonl-cache';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { JsonReader, localFs, type ReadContext } from '../runners';
import { type RemoteHost } from './ssh/host';
import { sftpFile, sftpFs, sftpRealpath, sftpSource } from './ssh/sftp-fs';
import { resolveStatic } from './static';
import { localSource, type ByteSource } from './tail/source';
import type { HostFeed } from './ssh/feed';
import { runOnce, spawnLocal, type Spawned } from './programs';
import { localShell, remoteShell, type Shell } from './launch/shell';
import { shellQuote } from '../shared/quote';
import { hostPresence } from '../shared/presence';
import { HostUnavailableError } from '../shared/errors';

const KINDS: Record<EventName, Change['kind']> = { add: 'created', addDir: 'created', change: 'modified', unlink: 'gone', unlinkDir: 'gone', all: 'changed', raw: 'changed', error: 'changed', ready: 'changed' };

/** Frames and videos are listed when a viewer asks; watching each one would flood the events. */
const MEDIA = /\.(png|jpe?g|mp4)$/i;

/** Frames and videos of remote cells are fetched whole; larger files are not served. */
const MAX_MEDIA_BYTES = 64 << 20;

/** A file to serve: on this machine, or its bytes read from an SSH host. */
export type Media = { file: string } | { bytes: Buffer; name: string };

/** Files of a cell as local files, for tools that only read local paths (ffmpeg). */
export interface LocalCopy {
  /** The local folder that stands for the cell's folder. */
  dir: string;
  release(): Promise<void>;
}

export interface HostContext {
  /** `local`, or the SSH host's alias. */
  host: string;
  /** What adapters read with, "now" being the time of this call. */
  read(): ReadContext;
  /** A growing file, for followers; its `watch` tells of its changes as they happen. */
  source(path: string): ByteSource;
  /**
   * Tells of changes below the folder `dir`: each changed path, or `dir` itself when anything may have
   * changed (a host's feed that started again). Resolves, once watching, to the function that stops it.
   */
  watch(dir: string, onChange: (change: Change) => void, onError: (error: Error) => void): Promise<() => Promise<void>>;
  /** Whether changes are told as they happen now; while not (a host whose feed is down), readers poll. */
  live(): boolean;
  /** A file below the cell folder `dir`, to serve; null when absent, too large or outside the cell. */
  media(dir: string, relative: string): Promise<Media | null>;
  /** `relatives` (files below `dir`) on this machine: the folder itself here, a temporary copy from a host. */
  localCopy(dir: string, relatives: string[]): Promise<LocalCopy>;
  /** Where `sh` scripts run there; a host not connected within 20 s rejects. */
  shell(): Promise<Shell>;
  /** A long-running program there (nvidia-smi -lms), stopped by `kill`. */
  spawn(command: string, args: string[]): Spawned;
  /** A program run once there (once the host is connected, as for `shell`): its stdout, or a rejection saying what failed. */
  once(command: string, args: string[]): Promise<string>;
}

/** How any part of the core reaches a place: by its host, `local` or an SSH alias. */
export type ContextOf = (place: { host: string }) => HostContext;

/** A cell's folder on its host: what the CLI reads a cell with. */
export interface CellContext {
  context: HostContext;
  /** The absolute path on its host. */
  dir: string;
  /** How messages name it: `ALIAS:/path`, or the local path. */
  where: string;
}

/** How long a host may take to connect before a script for it gives up. */
const CONNECT_MS = 20_000;

export function localHostContext(json = new JsonReader(localFs)): HostContext {
  const jsonl = new JsonlCache();
  return {
    host: 'local',
    read: () => ({ fs: localFs, json, jsonl, now: Date.now(), host: 'local' }),
    source: localSource,
    async watch(dir, onChange, onError) {
      // Loaded when something is watched: `status` never does.
      const { watch: chokidar } = await import('chokidar');
      const watcher = chokidar(dir, {
        ignoreInitial: true,
        depth: 5,
        // Frames are listed when a viewer asks; watching each one would flood the events.
        ignored: (path: string) => MEDIA.test(path),
      });
      watcher.on('all', (event, path) => onChange({ path, kind: KINDS[event] }));
      watcher.on('error', (error) => onError(error as Error));
      await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
      return () => watcher.close();
    },
    live: () => true,
    async media(dir, relative) {
      const file = await resolveStatic(dir, `/${relative}`);
      return file ? { file } : null;
    },
    localCopy: async (dir) => ({ dir, release: async () => undefined }),
    shell: async () => localShell,
    spawn: spawnLocal,
    once: (command, args) => runOnce(command, args),
  };
}

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
    async shell() {
      await connected();
      return remoteShell(host.alias, (command) => host.exec(command));
    },
    spawn: (command, args) => host.spawn(command, args),
    async once(command, args) {
      await connected();
      const answer = await host.exec(shellQuote([command, ...args]));
      if (answer.code !== 0) throw new Error(`${command} on ${host.alias} failed (exit ${answer.code ?? 'by signal'}): ${(answer.stderr || answer.stdout).trim().split('\n').slice(-2).join(' / ')}`);
      return answer.stdout;
    },
  };
}
