import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing';
import { localFs, syncLocalFs, type CellFs } from './fs';
import { JsonlCache } from './jsonl-cache';
import type { LineReader } from './line-steps';
import { eachLine } from './jsonl';

let tmp: ReturnType<typeof tempDir>;
let file: string;
/** The real local file system, counting the bytes read through it. */
let bytesRead = 0;
const counting: CellFs = {
  ...localFs,
  async readBytes(path, position, maxBytes) {
    const read = await localFs.readBytes(path, position, maxBytes);
    bytesRead += read?.bytes.length ?? 0;
    return read;
  },
};
beforeEach(() => {
  tmp = tempDir();
  file = join(tmp.path, 'ledger.jsonl');
  bytesRead = 0;
});
afterEach(() => tmp.remove());

const line = (i: number) => `${JSON.stringify({ seed: i, version: 'v001', steps: 100 + i, success: i % 2 === 0 })}\n`;

describe('JSONL logs read on from where they were', () => {
  it('a grown log costs only its new bytes, and reads as the whole file would', async () => {
    const cache = new JsonlCache();
    writeFileSync(file, Array.from({ length: 1000 }, (_, i) => line(i)).join(''));
    const first = await cache.read(counting, file, 'ledger.jsonl');
    expect(first.records).toHaveLength(1000);
    // The cache's own list, read on in place: what it held is taken now.
    const held = first.records.map((r) => [r.line, r.value.seed]);
    const before = bytesRead;
    appendFileSync(file, `${line(1000)}not json\n${line(1002)}{"partial": `);
    const second = await cache.read(counting, file, 'ledger.jsonl');
    expect(bytesRead - before).toBe(line(1000).length + 'not json\n'.length + line(1002).length + '{"partial": '.length);
    expect(second.records.map((r) => [r.line, r.value.seed])).toEqual([...held, [1001, 1000], [1003, 1002]]);
    expect(second.problems.map((p) => [p.file, p.line])).toEqual([['ledger.jsonl', 1002]]);
    // The same as a first read of the whole file.
    expect(await new JsonlCache().read(localFs, file, 'ledger.jsonl')).toEqual(second);
    // The partial line, once complete, is read from where it starts.
    appendFileSync(file, '1}\n');
    expect((await cache.read(counting, file, 'ledger.jsonl')).records.at(-1)).toEqual({ line: 1004, value: { partial: 1 } });
  });

  it('an unchanged log reads nothing; a log that shrank (rotated, truncated) is read again from its start', async () => {
    const cache = new JsonlCache();
    writeFileSync(file, line(0) + line(1));
    await cache.read(counting, file, 'ledger.jsonl');
    const before = bytesRead;
    await cache.read(counting, file, 'ledger.jsonl');
    expect(bytesRead).toBe(before);
    writeFileSync(file, line(7));
    expect((await cache.read(counting, file, 'ledger.jsonl')).records.map((r) => [r.line, r.value.seed])).toEqual([[1, 7]]);
  });

  it('reads a log of 500,000 tiny lines written at once (one read of each step hands them over together)', async () => {
    writeFileSync(file, '{}\n'.repeat(500_000));
    const read = await new JsonlCache().read(localFs, file, 'ledger.jsonl');
    expect(read.records).toHaveLength(500_000);
    expect(read.problems).toEqual([]);
  });

  it('reads a log of many steps whole, each line once, however the steps and the lines fall, a line longer than a step included', async () => {
    // Steps of 64 bytes, read into two buffers in turn while the one before is parsed: each line's text
    // as the reader kept it must be the line written, never bytes of a later step read over it.
    const lines: string[] = [];
    const reader: LineReader<string> = {
      name: 'lines',
      parse: (bytes, _file, firstLine) => {
        const records: string[] = [];
        const taken = eachLine(bytes.toString('utf8'), firstLine, (raw) => records.push(raw));
        return { records, problems: [], ...taken };
      },
      maxBytes: Number.MAX_SAFE_INTEGER,
      stepBytes: 64,
      maxLineBytes: 1024,
    };
    for (let i = 0; i < 300; i++) lines.push(i % 50 === 7 ? `long ${'é'.repeat(100 + i)}` : `line ${i} ${'x'.repeat((i * 37) % 90)}`);
    writeFileSync(file, lines.map((l) => `${l}\n`).join(''));
    // The app's own file calls (async), and the read workers' (synchronous: a read ahead lands at once).
    for (const fs of [localFs, syncLocalFs()]) {
      const read = await new JsonlCache().read(fs, file, 'lines.txt', reader);
      expect(read.records).toEqual(lines);
      expect(read.problems).toEqual([]);
    }
  });

  it('keeps only the most recently read logs', async () => {
    const cache = new JsonlCache(2);
    const files = ['a', 'b', 'c'].map((name) => join(tmp.path, `${name}.jsonl`));
    files.forEach((f) => writeFileSync(f, line(0)));
    for (const f of files) await cache.read(counting, f, 'x.jsonl');
    const before = bytesRead;
    await cache.read(counting, files[2] as string, 'x.jsonl');
    await cache.read(counting, files[1] as string, 'x.jsonl');
    expect(bytesRead).toBe(before);
    await cache.read(counting, files[0] as string, 'x.jsonl');
    expect(bytesRead - before).toBe(line(0).length);
  });
});
