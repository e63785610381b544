import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * The demo's clock. Each writer advances it by the nominal seconds a step of a real runner takes;
 * live, it sleeps that long divided by the speed; instant, it does not sleep at all. Timestamps in the
 * files follow the nominal clock either way.
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
}

export class DemoStopped extends Error {
  override name = 'DemoStopped';
}

/** Writes, making the file's folder first only when it is not there yet (most writes go to a folder that is). */
async function intoFolder(file: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dirname(file), { recursive: true });
    await write();
  }
}

/** Files as runners write them: logs appended a line at a time, JSON rewritten in place. */
export function appendLine(file: string, record: object): Promise<void> {
  return intoFolder(file, () => appendFile(file, `${JSON.stringify(record)}\n`));
}

export function appendText(file: string, text: string): Promise<void> {
  return intoFolder(file, () => appendFile(file, text));
}

export function writeJson(file: string, value: object): Promise<void> {
  return intoFolder(file, () => writeFile(file, `${JSON.stringify(value, null, 1)}\n`));
}

export function writeBytes(file: string, bytes: Uint8Array | string): Promise<void> {
  return intoFolder(file, () => writeFile(file, bytes));
}
