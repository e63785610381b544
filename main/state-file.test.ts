import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../runners/testing';
import { removeStaleTemps, StateFile } from './state-file';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.remove());

describe('a state file shared by several writers', () => {
  it('loses no update when writers that do not share a queue (other processes) read, change and write at once', async () => {
    const path = join(tmp.path, 'config', 'launched.json');
    // Each StateFile stands for one process: only the lock file keeps them apart.
    const writers = Array.from({ length: 4 }, () => new StateFile(path));
    const append = (file: StateFile, item: string) => file.update((text) => JSON.stringify([...(text === null ? [] : (JSON.parse(text) as string[])), item]));
    await Promise.all(writers.flatMap((file, w) => Array.from({ length: 25 }, (_, i) => append(file, `${w}:${i}`))));
    expect((JSON.parse(readFileSync(path, 'utf8')) as string[]).sort()).toEqual(writers.flatMap((_, w) => Array.from({ length: 25 }, (__, i) => `${w}:${i}`)).sort());
    expect(readdirSync(join(tmp.path, 'config'))).toEqual(['launched.json']);
  });

  it('takes over a lock whose writer died', async () => {
    const path = join(tmp.path, 'settings.json');
    // A pid that no process has (beyond the kernel's pid_max).
    writeFileSync(`${path}.lock`, '4194305');
    await new StateFile(path).update(() => 'after a crash');
    expect(readFileSync(path, 'utf8')).toBe('after a crash');
  });

  it('leaves the old file whole and no temporary file behind when the write fails', async () => {
    const path = join(tmp.path, 'settings.json');
    mkdirSync(path);
    await expect(new StateFile(path).write('new')).rejects.toThrow(`could not save ${path}`);
    await expect(new StateFile(path).update(() => 'new')).rejects.toThrow(`could not read ${path}`);
    expect(readdirSync(tmp.path)).toEqual(['settings.json']);
  });

  it('removes, at start, the temporary files of writers that are gone, and keeps a live one\'s', async () => {
    const dead = 'settings.json.4194305.0f8fad5b-d9cb-469f-a165-70867728950e.tmp';
    const live = `settings.json.${process.pid}.7c9e6679-7425-40de-944b-e07fc1f90ae7.tmp`;
    for (const name of [dead, live, 'notes.tmp']) writeFileSync(join(tmp.path, name), 'half');
    await removeStaleTemps(tmp.path);
    expect(readdirSync(tmp.path).sort()).toEqual(['notes.tmp', live].sort());
  });
});
