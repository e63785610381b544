// An Inspect log against broken and random input, as every other format is: never a throw; a member that
// is not JSON is a problem naming it; a zip cut anywhere is "being written" or no log at all.
import fc from 'fast-check';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localFs } from '../common/fs';
import { JsonlCache } from '../common/jsonl-cache';
import { ElementStream } from '../common/json-bytes';
import { fileCellsIn } from '../detect';
import { readCell } from '../read';
import { context, tempDir } from '../testing';
import { evalMembers, zipOf } from './write';

let tmp: ReturnType<typeof tempDir>;
beforeAll(() => (tmp = tempDir()));
afterAll(() => tmp.remove());
let n = 0;
const fresh = (ext = 'eval') => join(tmp.path, `l${n++}.${ext}`);

const members = evalMembers({ task: 't', model: 'm', sampleIds: [1, 2], epochs: 1, scorer: 'match', samples: [{ id: 1, epoch: 1, scores: { match: 'C' } }, { id: 2, epoch: 1, scores: { match: 'I' } }], status: 'success' });
const REAL = readFileSync(join(import.meta.dirname, 'fixtures/log_streaming.eval'));

describe('the element stream', () => {
  /** The elements of `bytes` pushed in pieces cut at `cuts`, and whether it says they were one whole array. */
  function streamed(bytes: Buffer, cuts: number[]): { elements: unknown[]; whole: boolean } {
    const stream = new ElementStream();
    const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
    const pieces = [0, ...at, bytes.length].slice(1).map((end, i, ends) => bytes.subarray(i === 0 ? 0 : (ends[i - 1] as number), end));
    const elements = pieces.flatMap((piece) => stream.push(piece)).map((e) => JSON.parse(e.toString('utf8')) as unknown);
    return { elements, whole: stream.end() };
  }

  it('finds every element of any JSON array, however it is spaced and cut into chunks; a cut-off array or anything after it is no whole array', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), fc.constantFrom(undefined, 2, '\t'), fc.array(fc.nat(), { maxLength: 12 }), fc.nat(), (value, space, cuts, cut) => {
        const bytes = Buffer.from(JSON.stringify(value, null, space));
        expect(streamed(bytes, cuts)).toEqual({ elements: JSON.parse(JSON.stringify(value)), whole: true });
        expect(streamed(bytes.subarray(0, cut % bytes.length), cuts).whole).toBe(false);
        expect(streamed(Buffer.concat([bytes, Buffer.from(' [')]), cuts).whole).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

describe('an Inspect log, fuzzed', () => {
  it('reads any member replaced by any text to its own problem, never the reader failing; a member it reads that is not JSON is named', async () => {
    // What a finished log is read from: its header and its final summaries (each summary says its sample's tokens).
    const read = new Set(['header.json', 'summaries.json']);
    await fc.assert(
      fc.asyncProperty(fc.nat(members.length - 1), fc.oneof(fc.jsonValue().map((v) => JSON.stringify(v)), fc.string({ maxLength: 80 })), async (which, text) => {
        const path = fresh();
        const name = (members[which] as { name: string }).name;
        writeFileSync(path, zipOf(members.map((m, i) => (i === which ? { name, json: text } : m))));
        const { cell } = await readCell(path, 'inspect', context());
        expect(cell.problems.map((p) => p.message)).not.toContainEqual(expect.stringMatching(/^could not read this cell/));
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        // Named by the member, or by the place in it of a summary that is not JSON (`summaries.json [0]`).
        const place = new RegExp(`^${name.replace(/[.[\]]/g, '\\$&')}( \\[\\d+\\])?$`);
        if (!parses && read.has(name)) expect(cell.problems).toContainEqual(expect.objectContaining({ file: expect.stringMatching(place), message: expect.stringMatching(/^not (JSON|a list of sample summaries)/) }));
      }),
      // A list whose first summary is not JSON (found on Node 24 by a random run).
      { numRuns: 150, examples: [[members.findIndex((m) => m.name === 'summaries.json'), '[#]']] },
    );
  });

  it('takes a real log cut at any byte as no log, or as being written while a good reading is kept', async () => {
    const path = fresh();
    const ctx = { ...context(), jsonl: new JsonlCache() };
    writeFileSync(path, REAL);
    const good = await readCell(path, 'inspect', ctx);
    await fc.assert(
      fc.asyncProperty(fc.nat(REAL.length - 1), fc.uint8Array({ maxLength: 64 }), async (cut, junk) => {
        writeFileSync(path, Buffer.concat([REAL.subarray(0, cut), junk]));
        const read = await readCell(path, 'inspect', ctx);
        expect(read.cell.episodes.ended).toBe(good.cell.episodes.ended);
        const found = await fileCellsIn(localFs, tmp.path, new Set([path.slice(tmp.path.length + 1)]));
        expect(found.length).toBeLessThanOrEqual(1);
      }),
      { numRuns: 150 },
    );
  });

  it('reads a real log whose central directory has any byte changed to any other as a log, being written, or none: never failing', async () => {
    // Where the directory starts and ends, from the end record of this (non-zip64) log.
    const end = REAL.length - 22;
    const [start, length] = [REAL.readUInt32LE(end + 16), REAL.readUInt32LE(end + 12)];
    const path = fresh();
    await fc.assert(
      fc.asyncProperty(fc.nat(length - 1), fc.integer({ min: 0, max: 255 }), async (at, value) => {
        const bytes = Buffer.from(REAL);
        bytes[start + at] = value;
        writeFileSync(path, bytes);
        const { cell } = await readCell(path, 'inspect', context());
        expect(cell.problems.map((p) => p.message)).not.toContainEqual(expect.stringMatching(/^could not read this cell/));
      }),
      { numRuns: 300 },
    );
  });

  it('is no cell when a .eval is another zip or a .json another object', async () => {
    const other = fresh();
    writeFileSync(other, zipOf([{ name: 'data.json', json: { version: 2, eval: {} } }]));
    const json = fresh('json');
    writeFileSync(json, JSON.stringify({ eval: { task: 't' }, version: 2 }));
    const names = new Set([other, json].map((p) => p.slice(tmp.path.length + 1)));
    expect(await fileCellsIn(localFs, tmp.path, names)).toEqual([]);
  });
});
