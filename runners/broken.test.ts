// Every adapter against broken input: it returns problems naming the file (and the line or field), and never throws.
import { existsSync, linkSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormatName } from '../shared/model';
import { ADAPTERS } from './index';
import { readCell } from './read';
import { context, jsonl, tempDir, writeTree } from './testing';

const FIFTY_MB = 50 * 1024 * 1024;

/** A well-formed cell of each format, and the files each adapter parses (JSON or JSONL). */
/** The formats whose cells are folders; cells that are files have their own tests (nemo-gym/broken.fuzz.test.ts, inspect/broken.fuzz.test.ts). */
type FolderFormat = Exclude<FormatName, 'nemo-gym' | 'inspect'>;

const CELLS: Record<
  FolderFormat,
  {
    files: Record<string, string | object>;
    json: string[];
    jsonl: string[];
    /** Folders the adapter lists by name. */
    dirs: string[];
    /** A file with fields of the wrong type, and the fields its problems must name. */
    wrong: Record<string, { text: string; fields: string[] }>;
  }
> = {
  'coding-agent': {
    files: {
      'run.json': { runner: 'coding-agent', run: 'std_a_b_c_d', protocol: { episodes: [0, 1] } },
      'summary.json': { episodes: { '0': { status: 'evaluated', success: true } }, aggregate: {} },
      'episodes/0000/trajectory.jsonl': jsonl([{ seq: 0, ev: 'episode_start' }]),
    },
    json: ['run.json', 'summary.json'],
    jsonl: [],
    dirs: ['episodes'],
    wrong: {
      'run.json': { text: '{"runner": "coding-agent", "run": 5, "protocol": "none", "cell": [], "started_at": false}', fields: ['run', 'cell', 'protocol', 'started_at'] },
      'summary.json': { text: '{"episodes": [1, 2], "planned": {"a": 1}, "aggregate": 3, "finished": "yes"}', fields: ['planned', 'episodes', 'aggregate', 'finished'] },
    },
  },
  'bigym-agent': {
    files: {
      'run.json': { runner: 'bigym-agent', budget_steps: 101000, steps_used: 300, status: 'running' },
      'sandbox_config.json': { tier: 'standard' },
      'ledger.jsonl': jsonl([{ seed: 1, version: 'v001', steps: 100, success: true }]),
      'policies/v001.py': 'pass\n',
      'eval/v001/summary.json': { version: 'v001', success_rate: 1, episodes: [{ seed: 9, success: true }] },
      'eval/v001/progress.jsonl': jsonl([{ index: 0, seed: 9, success: true }]),
    },
    json: ['run.json', 'sandbox_config.json', 'eval/v001/summary.json'],
    jsonl: ['ledger.jsonl', 'eval/v001/progress.jsonl'],
    dirs: ['policies', 'eval'],
    wrong: {
      'run.json': { text: '{"runner": "bigym-agent", "tokens": "many", "cost": 7, "budget_steps": "lots", "status": 1}', fields: ['budget_steps', 'status', 'tokens', 'cost'] },
      'eval/v001/summary.json': { text: '{"episodes": {}, "rejected": "no", "success_rate": "1"}', fields: ['episodes', 'rejected', 'success_rate'] },
    },
  },
  evopolicygym: {
    files: {
      'run.json': { runner: 'evopolicygym', config: { episode_budget: 30 }, terminal_reason: null },
      'events.jsonl': jsonl([{ type: 'submission_completed', charged: 3 }]),
    },
    json: ['run.json'],
    jsonl: ['events.jsonl'],
    dirs: [],
    wrong: {
      'run.json': { text: '{"runner": "evopolicygym", "config": null, "assessment": [1], "terminal_reason": 3}', fields: ['assessment', 'terminal_reason'] },
    },
  },
  'harbor-job': {
    files: {
      'config.json': { job_name: 'job' },
      'result.json': { n_total_trials: 2, stats: {} },
      'task__abc1234/config.json': { trial_name: 'task__abc1234' },
      'task__abc1234/result.json': { task_name: 'task', verifier_result: { rewards: { reward: 1 } } },
    },
    json: ['config.json', 'result.json', 'task__abc1234/result.json'],
    jsonl: [],
    // Trial folders are found by listing the job's folder, not by name.
    dirs: [],
    wrong: {
      'result.json': { text: '{"n_total_trials": "two", "stats": [], "finished_at": 5}', fields: ['stats', 'n_total_trials'] },
      'task__abc1234/result.json': { text: '{"task_name": 7, "verifier_result": "passed"}', fields: ['task_name', 'verifier_result'] },
    },
  },
};

const JSON_CORRUPTIONS: Record<string, string | Buffer> = {
  truncated: '{"runner": "coding-agent", "protocol": {"episo',
  'binary junk': Buffer.from([0x00, 0xff, 0xfe, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x00, 0x80]),
  empty: '',
  'an array': '[1, 2, 3]',
};
let tmp: ReturnType<typeof tempDir>;
beforeAll(() => (tmp = tempDir()));
afterAll(() => tmp.remove());

/**
 * A file of one 50 MB line, written once for the run: each file that holds it is a hard link to it. Written
 * for each of the twelve files the four formats parse, 600 MB took 4.5 s of a core.
 */
function fiftyMbLine(): string {
  const file = join(tmp.path, 'fifty-mb-line');
  if (!existsSync(file)) {
    const line = Buffer.alloc(FIFTY_MB + 1, 'a');
    line[FIFTY_MB] = 0x0a;
    writeFileSync(file, line);
  }
  return file;
}

function freshCell(format: FolderFormat, label: string): string {
  const dir = join(tmp.path, format, label.replace(/[^a-z0-9]+/gi, '_'));
  writeTree(dir, CELLS[format].files);
  return dir;
}

describe.each(Object.keys(CELLS) as FolderFormat[])('%s with broken input', (format) => {
  const spec = CELLS[format];
  const adapter = ADAPTERS[format];

  it.each(spec.json.flatMap((file) => Object.keys(JSON_CORRUPTIONS).map((kind) => [file, kind] as const)))('%s %s: a problem on that file', async (file, kind) => {
    const dir = freshCell(format, `${file}-${kind}`);
    writeFileSync(join(dir, file), JSON_CORRUPTIONS[kind] as string | Buffer);
    const { cell } = await adapter.read(dir, context());
    expect(cell.problems.map((p) => p.file)).toContain(file);
  });

  it.each(Object.entries(spec.wrong))('%s with fields of the wrong type: a problem naming the file and each field', async (file, { text, fields }) => {
    const dir = freshCell(format, `${file}-types`);
    writeFileSync(join(dir, file), text);
    const { cell } = await adapter.read(dir, context());
    const named = cell.problems.filter((p) => p.file === file).map((p) => /"([^"]+)" is /.exec(p.message)?.[1]);
    expect(named).toEqual(fields);
  });

  it.each(spec.jsonl)('%s with binary junk and a malformed line: problems with line numbers', async (file) => {
    const dir = freshCell(format, `${file}-junk`);
    writeFileSync(join(dir, file), Buffer.concat([Buffer.from('\x00\xff\xfe junk\n'), Buffer.from('{"a": \n'), Buffer.from('{"ok": 1}\n')]));
    const { cell } = await adapter.read(dir, context());
    expect(cell.problems.filter((p) => p.file === file && p.line !== undefined).map((p) => p.line)).toEqual([1, 2]);
  });

  it('3.6 MB of nesting in every file it parses (a line just under the length limit): a problem saying so on each, nothing built', async () => {
    const dir = freshCell(format, 'deep');
    const deep = `${'{"a":'.repeat(600_000)}1${'}'.repeat(600_000)}`;
    for (const file of [...spec.json, ...spec.jsonl]) writeFileSync(join(dir, file), `${deep}\n`);
    const { cell } = await adapter.read(dir, context());
    for (const file of [...spec.json, ...spec.jsonl]) expect(cell.problems.find((p) => p.file === file)?.message, file).toMatch(/nested deeper than 256 levels; not read/);
  });

  it('a 50 MB single line in every file it parses: problems, no throw', async () => {
    const dir = freshCell(format, 'fifty');
    for (const file of [...spec.json, ...spec.jsonl]) {
      rmSync(join(dir, file));
      linkSync(fiftyMbLine(), join(dir, file));
    }
    const { cell } = await adapter.read(dir, context());
    for (const file of [...spec.json, ...spec.jsonl]) expect(cell.problems.map((p) => p.file)).toContain(file);
  });

  it('missing folders: no problem; a file where a folder belongs and a folder where a file belongs: a problem naming it', async () => {
    const dir = freshCell(format, 'shapes');
    for (const sub of spec.dirs) rmSync(join(dir, sub), { recursive: true, force: true });
    expect((await adapter.read(dir, context())).cell.problems).toEqual([]);

    for (const folder of spec.dirs) {
      writeFileSync(join(dir, folder), 'not a folder');
      expect((await adapter.read(dir, context())).cell.problems).toContainEqual({ file: folder, message: `${folder} is not a folder`, severity: 'error' });
      // A folder that links back to the cell is read as a folder, once: the read ends, and says nothing of it.
      rmSync(join(dir, folder));
      symlinkSync(dir, join(dir, folder));
      const { cell } = await adapter.read(dir, context());
      expect(cell.path).toBe(dir);
      expect(cell.problems.filter((p) => p.file === folder || p.file.startsWith(`${folder}/${folder}`))).toEqual([]);
      rmSync(join(dir, folder));
    }

    const file = spec.json[0] as string;
    rmSync(join(dir, file));
    mkdirSync(join(dir, file));
    expect((await adapter.read(dir, context())).cell.problems).toContainEqual({ file, message: `${file} is not a file`, severity: 'error' });
  });

  it('a cell folder that vanished: a problem, no throw', async () => {
    const { cell } = await readCell(join(tmp.path, 'gone', format), format, context());
    expect(cell.problems).toEqual([{ file: join(tmp.path, 'gone', format), message: 'cell folder no longer exists', severity: 'error' }]);
  });
});
