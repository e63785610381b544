import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../runners/testing';
import { keptBundle, workersScript } from './worker-script';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.remove());

describe("the workers' script bundled from the source", () => {
  it('is a file of its own under its hash, the same bytes the same file', () => {
    const contents = new TextEncoder().encode('export {};\n');
    const file = keptBundle(tmp.path, contents);
    expect(basename(file)).toMatch(/^read-worker-[0-9a-f]{16}\.mjs$/);
    expect(readFileSync(file, 'utf8')).toBe('export {};\n');
    expect(keptBundle(tmp.path, contents)).toBe(file);
    expect(keptBundle(tmp.path, new TextEncoder().encode('export const a = 1;\n'))).not.toBe(file);
    expect(readdirSync(tmp.path)).toHaveLength(2);
  });

  it("removes an older checkout's bundles and a dead writer's half-written one, not one another process wrote today nor any other file", () => {
    const dayAndMore = new Date(Date.now() - 25 * 3600_000);
    for (const name of ['read-worker-00000000000000aa.mjs', 'notes.txt']) {
      writeFileSync(join(tmp.path, name), '');
      utimesSync(join(tmp.path, name), dayAndMore, dayAndMore);
    }
    const writing = `read-worker-00000000000000cc.mjs.${process.pid}.7c9e6679-7425-40de-944b-e07fc1f90ae7.tmp`;
    for (const name of ['read-worker-00000000000000bb.mjs', 'read-worker-00000000000000cc.mjs.4194305.0f8fad5b-d9cb-469f-a165-70867728950e.tmp', writing]) writeFileSync(join(tmp.path, name), '');
    const file = keptBundle(tmp.path, new TextEncoder().encode('export {};\n'));
    expect(readdirSync(tmp.path).sort()).toEqual(['notes.txt', 'read-worker-00000000000000bb.mjs', writing, basename(file)].sort());
  });

  it('is what the workers start from, where the source runs', () => {
    const script = workersScript();
    expect(script).toBeInstanceOf(URL);
    const path = fileURLToPath(script as URL);
    expect(path).toMatch(/node_modules\/\.cache\/cellwatch\/read-worker-[0-9a-f]{16}\.mjs$/);
    expect(existsSync(path)).toBe(true);
  });
});
