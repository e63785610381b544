// The resume's cell script as a host's sh runs it (here this machine's sh: the same POSIX script).
import { spawnSync } from 'node:child_process';
import { linkSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
});
