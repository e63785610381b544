// The resume's cell script as a host's sh runs it (here this machine's sh: the same POSIX script).
import { spawnSync } from 'node:child_process';
import { linkSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../runners/testing';
import { cellScript } from './host-scripts';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.remove());

const sh = (script: string) => spawnSync('sh', ['-c', script], { encoding: 'utf8' });

describe("a resume's cell on a host", () => {
  it("goes on in the run's own cell, and refuses a log hard-linked to a file outside it, which keeps its text", () => {
    const cell = join(tmp.path, 'ui_run');
    mkdirSync(cell);
    writeFileSync(join(cell, 'stdout.log'), 'mine\n');
    expect(sh(cellScript(cell, true)).status).toBe(0);

    const outside = join(tmp.path, 'outside.txt');
    writeFileSync(outside, 'precious\n');
    const stderr = join(cell, 'stderr.log');
    linkSync(outside, stderr);
    const refused = sh(cellScript(cell, true));
    expect(refused.status).toBe(17);
    expect(refused.stderr.trim()).toBe(`${stderr} has another name elsewhere (a hard link): a resume never appends to a file outside the run's cell`);
    expect(readFileSync(outside, 'utf8')).toBe('precious\n');
  });

  it('refuses a log that is not the file the launch made, though it has one name', () => {
    const cell = join(tmp.path, 'ui_run');
    mkdirSync(cell);
    const [stdout, stderr] = ['stdout.log', 'stderr.log'].map((name) => join(cell, name)) as [string, string];
    writeFileSync(stdout, 'mine\n');
    writeFileSync(stderr, '');
    const idOf = (file: string) => `${statSync(file).dev}:${statSync(file).ino}`;
    const logs = { stdout: idOf(stdout), stderr: idOf(stderr) };
    expect(sh(cellScript(cell, true, logs)).status).toBe(0);

    const moved = join(tmp.path, 'moved.txt');
    writeFileSync(moved, 'moved\n');
    renameSync(moved, stdout);
    const refused = sh(cellScript(cell, true, logs));
    expect(refused.status).toBe(17);
    expect(refused.stderr.trim()).toBe(`${stdout} is not the file the launch made (another device or inode): a resume appends only to the run's own log`);
  });
});
