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

/** Files as runners write them: logs appended a line at a time, JSON rewritten in place. */
export async function appendLine(file: string, record: object): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await appendFile(file, `${JSON.stringify(record)}\n`);
}

export async function appendText(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await appendFile(file, text);
}

export async function writeJson(file: string, value: object): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(value, null, 1)}\n`);
}

export async function writeBytes(file: string, bytes: Uint8Array | string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, bytes);
}
