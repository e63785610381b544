// Property tests: every adapter on random and truncated JSON never throws, and says which file is wrong.
import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormatName } from '../shared/model';
import { ADAPTERS } from './index';
import { readCell } from './read';
import { context, jsonl, tempDir, writeTree } from './testing';

let tmp: ReturnType<typeof tempDir>;
beforeAll(() => (tmp = tempDir()));
afterAll(() => tmp.remove());

/** Each format's main JSON file and a log it reads, with a valid first version of each. */
/** The formats whose cells are folders; cells that are files are fuzzed in nemo-gym/broken.fuzz.test.ts and inspect/broken.fuzz.test.ts. */
type FolderFormat = Exclude<FormatName, 'nemo-gym' | 'inspect'>;

const FILES: Record<FolderFormat, { json: [string, object]; log?: [string, object] }> = {
  'coding-agent': { json: ['summary.json', { episodes: { '0': { status: 'evaluated', success: true } }, planned: [0] }], log: ['episodes/0000/trajectory.jsonl', { seq: 0, ev: 'episode_start' }] },
  'bigym-agent': { json: ['run.json', { runner: 'bigym-agent', budget_steps: 1000, status: 'running' }], log: ['ledger.jsonl', { seed: 1, version: 'v001', steps: 10 }] },
  evopolicygym: { json: ['run.json', { runner: 'evopolicygym', config: { episode_budget: 3 } }], log: ['events.jsonl', { type: 'run_started' }] },
  'harbor-job': { json: ['result.json', { n_total_trials: 1, stats: {} }] },
};
const RUN_JSON: Record<FolderFormat, object> = {
  'coding-agent': { runner: 'coding-agent' },
  'bigym-agent': { runner: 'bigym-agent' },
  evopolicygym: { runner: 'evopolicygym' },
  'harbor-job': { job_name: 'job' },
};

let n = 0;
describe.each(Object.keys(FILES) as FolderFormat[])('%s, fuzzed', (format) => {
  it('reads random JSON values and truncated files without throwing; a broken file is a problem naming it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue().map((v) => JSON.stringify(v)), fc.nat(200).map((cut) => JSON.stringify(FILES[format].json[1]).slice(0, cut))), fc.string({ maxLength: 60 }), async (text, logLine) => {
        const dir = join(tmp.path, format, String(n++));
        const [file, valid] = FILES[format].json;
        writeTree(dir, { [format === 'harbor-job' ? 'config.json' : 'run.json']: RUN_JSON[format], [file]: valid });
        writeFileSync(join(dir, file), text);
        const log = FILES[format].log;
        if (log) writeTree(dir, { [log[0]]: `${jsonl([log[1]])}${logLine.replace(/\n/g, ' ')}\n` });
        const { cell } = await readCell(dir, format, context(), { detail: true });
        let parses: boolean;
        try {
          const value: unknown = JSON.parse(text);
          parses = value !== null && typeof value === 'object' && !Array.isArray(value);
        } catch {
          parses = false;
        }
        if (!parses) expect(cell.problems.map((p) => p.file)).toContain(file);
        for (const p of cell.problems) expect(p).toEqual(expect.objectContaining({ file: expect.any(String), message: expect.any(String) }));
        expect(ADAPTERS[format].format).toBe(format);
      }),
      { numRuns: 40 },
    );
  });
});
