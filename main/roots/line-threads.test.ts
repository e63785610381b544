// The threads a long local read is split among, as the app starts them: the workers' script in the role of
// reading parts, each part's records crossing back as the same records a read here makes of it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { syncLocalFs } from '../../runners';
import type { LinePacker, LineReader } from '../../runners/common/line-steps';
import { partBounds, readParts, readSplit, type PartRead, type PartsJob } from '../../runners/common/split-lines';
import { PART_READERS } from '../../runners/part-readers';
import { tempDir } from '../../runners/testing';
import { lineThreads } from './line-threads';

const fs = syncLocalFs();
const reader = PART_READERS.get('nemo-gym') as LineReader<unknown> & { packer: LinePacker<unknown> };
let tmp: ReturnType<typeof tempDir>;
let path: string;
beforeEach(() => {
  tmp = tempDir();
  path = join(tmp.path, 'collection.jsonl');
  const row = (task: number) => JSON.stringify({ _ng_task_index: task, _ng_rollout_index: task % 4, agent_ref: { name: `agent_${task % 3}` }, response: { output: 'x'.repeat(task * 37), usage: { input_tokens: task, output_tokens: 2 } }, reward: task % 2, resolved: task % 5 === 0 });
  // 400 rows, with blank and malformed lines among them.
  writeFileSync(path, Array.from({ length: 400 }, (_, task) => (task % 50 === 7 ? `${row(task)}\n\n{"oops\n` : `${row(task)}\n`)).join(''));
});
afterEach(() => tmp.remove());

const job = async (name = reader.name): Promise<PartsJob> => {
  const size = (await fs.stat(path))?.size as number;
  return { reader: name, path, label: 'collection.jsonl', bounds: await partBounds(fs, path, 0, size, 64 * 1024), next: new Int32Array(new SharedArrayBuffer(4)) };
};

/** The records of parts, in file order, as the log they join numbers their lines. */
function joined(parts: PartRead[]) {
  let lines = 0;
  return parts
    .sort((a, b) => a.index - b.index)
    .map((part) => {
      const records = reader.packer.unpack(part.packed, lines);
      const problems = part.problems.map((p) => ({ ...p, line: (p.line as number) + lines }));
      lines += part.lines;
      return { index: part.index, records, problems, offset: part.offset };
    });
}

describe('a thread reading parts of a long local log', () => {
  it('reads every part it claims and hands back its records as a read on this thread makes them', async () => {
    const crossed: PartRead[] = [];
    const asked = await job();
    // This thread claims none: the thread reads them all.
    await lineThreads(undefined, 2).read(asked, (part) => crossed.push(part));
    expect(asked.bounds.length).toBeGreaterThan(10);
    expect(crossed.map((p) => p.index).sort((a, b) => a - b)).toEqual(Array.from({ length: asked.bounds.length - 1 }, (_, k) => k));
    const here: PartRead[] = [];
    await readParts(fs, await job(), reader, (part) => here.push(structuredClone(part)));
    const read = joined(crossed);
    expect(read).toEqual(joined(here));
    expect(read.flatMap((p) => p.problems).map((p) => p.line)).toEqual(Array.from({ length: 8 }, (_, k) => 10 + 52 * k));
    expect(read.at(-1)?.offset).toBe((await fs.stat(path))?.size);
  });

  it('joins the parts in file order as they come from the threads, saying each time some did', async () => {
    const size = (await fs.stat(path))?.size as number;
    const split = { ...lineThreads(undefined, 2), partBytes: 16 * 1024 };
    const log = () => ({ offset: 0, line: 1, records: [] as unknown[], problems: [], skipping: false });
    const whole = log();
    const heard: number[] = [];
    await readSplit(split, fs, path, 'collection.jsonl', reader, whole, size, { onRecords: (records) => void heard.push(records.length) });
    expect(whole.offset).toBe(size);
    expect(heard.length).toBeGreaterThan(2);
    expect(heard).toEqual([...heard].sort((a, b) => a - b));
  });

  it('fails, naming why, when it cannot read its parts', async () => {
    await expect(lineThreads(undefined, 2).read(await job('no such reader'), () => undefined)).rejects.toThrow('no reader named no such reader reads parts');
  });
});
