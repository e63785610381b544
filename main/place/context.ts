// One way to reach a place, this machine or an SSH host: its files, their changes, and the programs run
// there. Every operation (reading, following, frames, media, recordings, compare, paired tests, GPU
// sampling, launch scripts, a remote root's listing) goes through a HostContext, so a remote cell does all
// a local one does. This module and the registry are where a place is told apart from another.
import type { Change } from '../changes';
import { JsonlCache, KEPT_LOGS } from '../../runners/common/jsonl-cache';
import { lineThreads } from '../roots/line-threads';
import { watchTree } from '../roots/tree-watcher';
import { JsonReader, localFs, type CellFs, type ReadContext } from '../../runners';
import { resolveStatic } from '../static';
import { localSource, type ByteSource } from '../tail/source';
import { execLocal, outputOf, spawnLocal, type ProgramResult, type Spawned } from '../programs';
import { hostWords, LOCAL } from '../../shared/address';
import type { Presence } from '../../shared/presence';

/** Frames and videos are listed when a viewer asks; telling each one would flood the events. */
const MEDIA = /\.(png|jpe?g|mp4)$/i;

/** A file to serve: on this machine, or its bytes read from an SSH host. */
export type Media = { file: string } | { bytes: Buffer; name: string };

/** Files of a cell as local files, for tools that only read local paths (ffmpeg). */
export interface LocalCopy {
  /** The local folder that stands for the cell's folder. */
  dir: string;
  release(): Promise<void>;
}

/** How a place is reached now: this machine is live; an SSH host as its connection is, and why it is down. */
export interface Connection {
  presence: Presence;
  problem: string | null;
}

export interface HostContext {
  /** LOCAL, or the SSH host's alias. */
  host: string;
  connection(): Connection;
  /** Until the first outcome of connecting (at once here); rejects with why a host cannot be reached. */
  ready(): Promise<void>;
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
  /**
   * A program run once there (on a host once it is connected; one not connected within 20 s rejects): `sh`
   * with `-c` for a script, nvidia-smi with its query. What it printed and its exit code; rejects only when it
   * cannot run at all, or (here) gives no answer within `timeoutMs`.
   */
  exec(command: string, args: string[], timeoutMs?: number): Promise<ProgramResult>;
  /** A long-running program there (nvidia-smi -lms), stopped by `kill`. */
  spawn(command: string, args: string[]): Spawned;
  /**
   * The folder `dir` and what is below it to `depth`, as files to read: here the folder itself; on a host
   * one command's listing of it, its small JSON files held (asked of the host beyond that).
   */
  snapshot(dir: string, depth: number): Promise<CellFs>;
}

/** A program's stdout where the context runs it (5 s at most); a non-zero exit rejects with its last lines. */
export async function programOutput(context: HostContext, command: string, args: string[], timeoutMs = 5000): Promise<string> {
  return outputOf(await context.exec(command, args, timeoutMs), command, hostWords(context.host));
}

/** How any part of the core reaches a place: by its host, LOCAL or an SSH alias. */
export type ContextOf = (place: { host: string }) => HostContext;

/** A cell's folder on its host: what the CLI reads a cell with. */
export interface CellContext {
  context: HostContext;
  /** The absolute path on its host. */
  dir: string;
  /** How messages name it: `ALIAS:/path`, or the local path. */
  where: string;
}

export function localHostContext(json = new JsonReader(localFs)): HostContext {
  const jsonl = new JsonlCache(KEPT_LOGS, lineThreads());
  return {
    host: LOCAL,
    connection: () => ({ presence: 'live', problem: null }),
    ready: async () => undefined,
    read: () => ({ fs: localFs, json, jsonl, now: Date.now(), host: LOCAL }),
    source: localSource,
    async watch(dir, onChange, onError) {
      const watcher = await watchTree(dir, {
        depth: 5,
        ignored: (path) => MEDIA.test(path),
        onChange: (path, kind) => onChange({ path, kind }),
        onFailure: onError,
      });
      return async () => watcher.close();
    },
    live: () => true,
    async media(dir, relative) {
      const file = await resolveStatic(dir, `/${relative}`);
      return file ? { file } : null;
    },
    localCopy: async (dir) => ({ dir, release: async () => undefined }),
    exec: execLocal,
    spawn: spawnLocal,
    snapshot: async () => localFs,
  };
}
