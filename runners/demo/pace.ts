import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * The demo's clock, and its files. Each writer advances the clock by the nominal seconds a step of a real
 * runner takes; live, it sleeps that long divided by the speed; instant, it does not sleep at all.
 * Timestamps in the files follow the nominal clock either way. Files are written as runners write them:
 * logs appended a line at a time, JSON rewritten in place; instant, with synchronous calls (nothing is
 * waited for, and its 20,000 writes took twice the CPU through the thread pool).
 */
export class Pace {
  private elapsed = 0;

  constructor(
    private readonly startEpochS: number,
    private readonly speed: number,
    private readonly instant: boolean,
    private readonly signal?: AbortSignal,
  ) {}

  /** Epoch seconds on the nominal clock. */
  now(): number {
    return Math.round((this.startEpochS + this.elapsed) * 100) / 100;
  }

  iso(): string {
    return new Date(this.now() * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  }

  async wait(seconds: number): Promise<void> {
    this.elapsed += seconds;
    if (this.signal?.aborted) throw new DemoStopped();
    if (this.instant) return;
    await new Promise<void>((resolve, reject) => {
      const stop = () => {
        clearTimeout(timer);
        reject(new DemoStopped());
      };
      const timer = setTimeout(() => {
        this.signal?.removeEventListener('abort', stop);
        resolve();
      }, (seconds * 1000) / this.speed);
      this.signal?.addEventListener('abort', stop, { once: true });
    });
  }

  /** The file calls this demo writes with. */
  private get files(): FileCalls {
    return this.instant ? SYNC_CALLS : PROMISED_CALLS;
  }

  appendLine(file: string, record: object): Promise<void> {
    return this.appendText(file, `${JSON.stringify(record)}\n`);
  }

  appendText(file: string, text: string): Promise<void> {
    const { append, makeFolder } = this.files;
    return intoFolder(file, () => append(file, text), makeFolder);
  }

  writeJson(file: string, value: object): Promise<void> {
    return this.writeBytes(file, `${JSON.stringify(value, null, 1)}\n`);
  }

  writeBytes(file: string, bytes: Uint8Array | string): Promise<void> {
    const { write, makeFolder } = this.files;
    return intoFolder(file, () => write(file, bytes), makeFolder);
  }
}

export class DemoStopped extends Error {
  override name = 'DemoStopped';
}

interface FileCalls {
  append(file: string, text: string): unknown;
  write(file: string, bytes: Uint8Array | string): unknown;
  makeFolder(dir: string, options: { recursive: true }): unknown;
}
const PROMISED_CALLS: FileCalls = { append: appendFile, write: writeFile, makeFolder: mkdir };
const SYNC_CALLS: FileCalls = { append: appendFileSync, write: writeFileSync, makeFolder: mkdirSync };

/** Writes, making the file's folder first only when it is not there yet (most writes go to a folder that is). */
async function intoFolder(file: string, write: () => unknown, makeFolder: FileCalls['makeFolder']): Promise<void> {
  try {
    await write();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await makeFolder(dirname(file), { recursive: true });
    await write();
  }
}
