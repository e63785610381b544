import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CellSummary } from '../../shared/model';
import { tempDir } from '../../runners/testing';
import { localHostContext } from '../place/context';
import { readLog } from './logs';

let tmp: ReturnType<typeof tempDir>;
let cell: CellSummary;
const local = localHostContext();
beforeEach(() => {
  tmp = tempDir();
  cell = { id: `local:${tmp.path}`, host: 'local', path: tmp.path, format: 'bigym-agent' } as CellSummary;
});
afterEach(() => tmp.remove());

describe("a cell's text log, read on as it grows", () => {
  it('whole lines only, from where the last read ended; a log that shrank starts over', async () => {
    expect(await readLog(cell, () => local, 'stdout.log', null)).toBeNull();
    writeFileSync(join(tmp.path, 'stdout.log'), 'loading\nstep 1\nste');
    const first = await readLog(cell, () => local, 'stdout.log', null);
    expect(first).toEqual({ text: 'loading\nstep 1\n', offset: 15, restarted: false });
    appendFileSync(join(tmp.path, 'stdout.log'), 'p 2\nstep 3\n');
    expect(await readLog(cell, () => local, 'stdout.log', first?.offset ?? 0)).toEqual({ text: 'step 2\nstep 3\n', offset: 29, restarted: false });
    writeFileSync(join(tmp.path, 'stdout.log'), 'again\n');
    expect(await readLog(cell, () => local, 'stdout.log', 29)).toEqual({ text: 'again\n', offset: 6, restarted: true });
  });

  it("a bigym session's transcript and an evopolicygym agent's stdout are logs too; bytes that are not UTF-8 read as replacement characters", async () => {
    writeFileSync(join(tmp.path, 'transcript.md'), Buffer.concat([Buffer.from('# task\n\nv001: '), Buffer.from([0xff, 0xfe]), Buffer.from(' tried\n')]));
    expect((await readLog(cell, () => local, 'transcript.md', null))?.text).toBe('# task\n\nv001: \ufffd\ufffd tried\n');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(tmp.path, 'agent'));
    writeFileSync(join(tmp.path, 'agent', 'stdout.jsonl'), '{"type": "item.completed"}\n');
    expect((await readLog(cell, () => local, 'agent/stdout.jsonl', null))?.text).toBe('{"type": "item.completed"}\n');
  });

  it('a long log opens on its last megabyte, from a whole line', async () => {
    const line = `${'x'.repeat(99)}\n`;
    writeFileSync(join(tmp.path, 'stderr.log'), line.repeat(20_000));
    const chunk = await readLog(cell, () => local, 'stderr.log', null);
    expect(chunk?.restarted).toBe(true);
    expect(chunk?.text.startsWith('x')).toBe(true);
    expect(chunk?.text.split('\n').every((l) => l === '' || l.length === 99)).toBe(true);
    expect(chunk?.offset).toBe(2_000_000);
  });
});
