import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * A file of the app's own state (settings, launched runs, alerts), written whole: beside it, then renamed
 * over it, so a crash never leaves half a file; and one write after another, so two saves never race.
 */
export class StateFile {
  private writing: Promise<void> = Promise.resolve();

  constructor(readonly path: string) {}

  write(text: string): Promise<void> {
    const write = async () => {
      await mkdir(dirname(this.path), { recursive: true });
      const temp = `${this.path}.${process.pid}.${randomUUID()}.tmp`;
      await writeFile(temp, text);
      await rename(temp, this.path);
    };
    this.writing = this.writing.then(write, write);
    return this.writing;
  }
}
