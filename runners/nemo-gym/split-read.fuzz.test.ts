// A collection's rollouts read in parts by several threads at once (common/split-lines.ts) against the
// same file read in one pass: the same rows, line numbers, offsets and problems, for any file, grown in
// any steps, cut into parts of any size, with a thread that dies part way. The threads here share this
// one, each part crossing as it crosses between threads (a structured clone, its arrays moved); the real
// threads are tested in main/roots/line-threads.test.ts.
import fc from 'fast-check';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { syncLocalFs } from '../common/fs';
import { JsonlCache } from '../common/jsonl-cache';
import type { LinePacker, LineReader } from '../common/line-steps';
import { readParts, readSplit, type LineSplitter } from '../common/split-lines';
import { NEMO_ROWS } from './read';
import type { RowBlock } from './row-block';
import { rowsIn } from './testing';

const dir = mkdtempSync(join(tmpdir(), 'cellwatch-split-read-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fs = syncLocalFs();

type Reader = LineReader<RowBlock> & { packer: LinePacker<RowBlock> };

/**
 * Threads that share this one: each claims parts as a thread does, and hands each back through a
 * structured clone; one that dies does so after handing back `diesAfter` parts, the one it claimed lost.
 */
function sharedThreads(reader: Reader, threads: number, partBytes: number, diesAfter: number | null): LineSplitter & { handed: number } {
  const splitter = {
    threads,
    partBytes,
    handed: 0,
    read: async (job: Parameters<LineSplitter['read']>[0], onPart: Parameters<LineSplitter['read']>[1]) => {
      let sent = 0;
      await readParts(fs, job, reader, (part, transfer) => {
        if (diesAfter !== null && sent++ >= diesAfter) throw new Error('the thread died');
        splitter.handed++;
        onPart(structuredClone(part, { transfer }));
      });
    },
  };
  return splitter;
}

// Lines of every kind a reader meets: rows (some with units past 2^30), blank lines, malformed lines, rows
// without a unit, and lines longer than the reader reads (skipped as problems).
const row = fc.record({
  task: fc.oneof({ weight: 8, arbitrary: fc.nat(40) }, { weight: 1, arbitrary: fc.constantFrom(2 ** 30, 2 ** 31, 2 ** 40) }),
  repeat: fc.option(fc.nat(3)),
  agent: fc.option(fc.constantFrom('a', 'b', 'é')),
  reward: fc.oneof(fc.constantFrom(0, 1, 0.5, 'n/a', null), fc.double({ noNaN: true, noDefaultInfinity: true })),
  pad: fc.nat(600),
  resolved: fc.boolean(),
});
const line = fc.oneof(
  { weight: 12, arbitrary: row.map((r) => JSON.stringify({ _ng_task_index: r.task, ...(r.repeat === null ? {} : { _ng_rollout_index: r.repeat }), ...(r.agent === null ? {} : { agent_ref: { name: r.agent } }), response: { output: 'x'.repeat(r.pad), usage: { input_tokens: r.pad, output_tokens: 3 } }, reward: r.reward, resolved: r.resolved })) },
  { weight: 2, arbitrary: fc.constantFrom('', '  ', '\t') },
  { weight: 1, arbitrary: fc.constantFrom('{"_ng_task_index": 1, "oops', 'not json', '[]', '{"reward": 1}') },
  { weight: 1, arbitrary: fc.nat(3).map((k) => JSON.stringify({ _ng_task_index: k, notes: 'y'.repeat(9000) })) },
);

/** What a user is shown of a read: every row whole, the problems, and whether the file was cut short. */
const shown = (log: Awaited<ReturnType<JsonlCache['read']>>) => ({ rows: rowsIn(log.records as RowBlock[]), problems: log.problems, truncated: log.truncated });

describe("a collection's rollouts read in parts by several threads at once", () => {
  it('reads what one pass reads, for files grown in steps, parts of any size and threads that die, and hands on its rows in file order as they join', async () => {
    let parts = 0;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(line, { maxLength: 40 }), { minLength: 1, maxLength: 3 }),
        // A partial last line, short or longer than the reader reads (passed over as it is written).
        fc.oneof(fc.string({ maxLength: 30 }).map((s) => s.replace(/\n/g, '')), fc.constant(`{"notes": "${'z'.repeat(9000)}`)),
        fc.record({ step: fc.integer({ min: 256, max: 4096 }), partBytes: fc.integer({ min: 64, max: 3000 }), threads: fc.integer({ min: 2, max: 4 }), diesAfter: fc.option(fc.nat(2)) }),
        async (growth, partial, { step, partBytes, threads, diesAfter }) => {
          const reader: Reader = { ...NEMO_ROWS, packer: NEMO_ROWS.packer as LinePacker<RowBlock>, stepBytes: step, maxLineBytes: 2 * step };
          const path = join(dir, `c${runs++}.jsonl`);
          writeFileSync(path, '');
          const one = new JsonlCache();
          const splitter = sharedThreads(reader, threads, partBytes, diesAfter);
          const split = new JsonlCache(64, splitter);
          for (const [k, lines] of growth.entries()) {
            // A step may end in a partial line, which waits for its newline: the next step's first line ends it.
            appendFileSync(path, lines.map((l) => `${l}\n`).join('') + (k % 2 === 0 ? partial : ''));
            // What a reader counting as the parts join hears: the rows in file order, each time more of them,
            // once what it does meanwhile (another file read) is done, whether or not the read is split.
            const heard: ReturnType<typeof rowsIn>[] = [];
            let meanwhile = 'not done';
            const hooks = {
              meanwhile: async () => {
                await new Promise(setImmediate);
                meanwhile = 'done';
              },
              onRecords: (records: readonly RowBlock[]) => {
                expect(meanwhile).toBe('done');
                heard.push(rowsIn(records as RowBlock[]));
              },
            };
            const read = shown(await split.read(fs, path, 'c.jsonl', reader, hooks));
            expect(meanwhile).toBe('done');
            expect(read).toEqual(shown(await one.read(fs, path, 'c.jsonl', reader)));
            for (const [i, sofar] of heard.entries()) {
              expect(sofar).toEqual(read.rows.slice(0, sofar.length));
              if (i > 0) expect(sofar.length).toBeGreaterThanOrEqual((heard[i - 1] as unknown[]).length);
            }
          }
          parts += splitter.handed;
        },
      ),
      { seed: 7, numRuns: 300 },
    );
    // The parts did cross: the reads were split, not all done on one thread.
    expect(parts).toBeGreaterThan(200);
  });

  it("fails the read with what a count of joined rows throws as another thread's part arrives, not that thread's handler", async () => {
    const path = join(dir, 'thrown.jsonl');
    writeFileSync(path, Array.from({ length: 200 }, (_, task) => `${JSON.stringify({ _ng_task_index: task, reward: 1, notes: 'n'.repeat(200) })}\n`).join(''));
    const reader: Reader = { ...NEMO_ROWS, packer: NEMO_ROWS.packer as LinePacker<RowBlock> };
    // The other thread claims the first part before this one starts, and hands each part on in a turn of its own, as a message arrives.
    const splitter: LineSplitter = {
      threads: 2,
      partBytes: 4096,
      read: (job, onPart) => readParts(fs, job, reader, (part, transfer) => void setImmediate(() => onPart(structuredClone(part, { transfer })))),
    };
    const size = (await fs.stat(path))?.size as number;
    let calls = 0;
    const log = { offset: 0, line: 1, records: [] as unknown[], problems: [], skipping: false };
    const onRecords = () => {
      if (calls++ > 0) throw new Error('the count failed');
    };
    await expect(readSplit(splitter, fs, path, 'thrown.jsonl', reader, log, size, { onRecords })).rejects.toThrow('the count failed');
  });
});
