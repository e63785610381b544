import { randomUUID } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** How long a write waits for another process's lock before saying so. */
const LOCK_WAIT_MS = 10_000;
/** A lock older than this is a crashed writer's: no write takes this long. */
const LOCK_STALE_MS = 30_000;
const TEMP = /^(.+)\.(\d+)\.[0-9a-f-]{36}\.tmp$/;

/**
 * Where a file's next version is written before it is renamed over it: named for its writer, so that a start
 * removes those of writers that died mid-write (removeStaleTemps).
 */
const tempBeside = (path: string) => `${path}.${process.pid}.${randomUUID()}.tmp`;

/**
 * `path` replaced whole by `data`, written beside it first, for a thread that writes synchronously (a read
 * worker): a reader never sees half a file, and a write that fails throws and leaves no temporary file.
 */
export function replaceFileSync(path: string, data: string | Uint8Array): void {
  const temp = tempBeside(path);
  try {
    writeFileSync(temp, data);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether `name` is a temporary file (tempBeside's) whose writer died mid-write (a full disk, a kill -9). */
export function staleTemp(name: string): boolean {
  const temp = TEMP.exec(name);
  return temp !== null && !alive(Number(temp[2]));
}

/** Removes the temporary files that writers of `dir` left when they died mid-write. */
export async function removeStaleTemps(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.map((name) => (staleTemp(name) ? rm(join(dir, name), { force: true }) : undefined)));
}

/**
 * A file of the app's own state (settings, launched runs, alerts), written whole: beside it, then renamed
 * over it, so a crash never leaves half a file; one write after another in this process, and under a lock
 * file against the others that share the config folder (serve, the CLI, a second window).
 */
export class StateFile {
  private writing: Promise<void> = Promise.resolve();
  private readonly lock: string;

  /** `mode`: the file's permissions when it is made (0o600: only this user reads it). */
  constructor(
    readonly path: string,
    private readonly mode?: number,
  ) {
    this.lock = `${path}.lock`;
  }

  /** Replaces the file's text. For a file other processes also write, `update`. */
  write(text: string): Promise<void> {
    return this.queue(() => this.replace(text));
  }

  /**
   * Reads the file as it is now (null when there is none), under the lock, and writes what `change` makes
   * of it: what another process wrote meanwhile is merged, never lost.
   */
  update(change: (current: string | null) => string): Promise<void> {
    return this.queue(async () => {
      await this.acquire();
      try {
        const current = await readFile(this.path, 'utf8').catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return null;
          throw new Error(`could not read ${this.path}: ${error.message}`, { cause: error });
        });
        await this.replace(change(current));
      } finally {
        await rm(this.lock, { force: true });
      }
    });
  }

  private queue(write: () => Promise<void>): Promise<void> {
    this.writing = this.writing.then(write, write);
    return this.writing;
  }

  private async replace(text: string): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const temp = tempBeside(this.path);
    try {
      await writeFile(temp, text, this.mode === undefined ? undefined : { mode: this.mode });
      await rename(temp, this.path);
    } catch (error) {
      // A full disk: the half-written file goes, the old one stays whole.
      await rm(temp, { force: true });
      throw new Error(`could not save ${this.path}: ${(error as Error).message}`, { cause: error });
    }
  }

  private async acquire(): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        const file = await open(this.lock, 'wx');
        await file.writeFile(String(process.pid));
        await file.close();
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      if (await this.stale()) {
        await rm(this.lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`${basename(this.path)} is locked by another Cellwatch (${this.lock}); remove the lock if no other is running`);
      await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 20));
    }
  }

  /** A lock whose writer is gone (its pid no longer runs) or that is older than any write. */
  private async stale(): Promise<boolean> {
    const [text, info] = await Promise.all([readFile(this.lock, 'utf8').catch(() => null), stat(this.lock).catch(() => null)]);
    if (text === null || info === null) return false;
    const pid = Number(text);
    // Written but not yet filled by its writer: give it a moment.
    if (!pid) return Date.now() - info.mtimeMs > 1000;
    return !alive(pid) || Date.now() - info.mtimeMs > LOCK_STALE_MS;
  }
}
