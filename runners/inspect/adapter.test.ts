import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { findTool } from '../../scripts/system-tools.mjs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localFs } from '../common/fs';
import { JsonlCache } from '../common/jsonl-cache';
import { fileCellsIn } from '../detect';
import { readCell } from '../read';
import { context, tempDir } from '../testing';
import { pairUnits } from '../../shared/mcnemar';
import { inspect } from './adapter';
import { evalMembers, zipOf, type LogSample, type LogSpec } from './write';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const fixture = (name: string) => readCell(join(FIXTURES, name), 'inspect', context(), { detail: true });

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.remove());

const spec = (samples: LogSample[], more: Partial<LogSpec> = {}): LogSpec => ({ task: 'arith', model: 'openai/gpt-4o', sampleIds: [1, 2, 3], epochs: 2, scorer: 'match', samples, ...more });
function writeLog(name: string, log: LogSpec): string {
  const path = join(tmp.path, name);
  writeFileSync(path, zipOf(evalMembers(log)));
  return path;
}

describe('Inspect logs from inspect_ai\'s own tests', () => {
  it('finds each log among a folder\'s files by its contents, a .eval and a .json alike', async () => {
    const names = new Set((await localFs.list(FIXTURES))?.map((e) => e.name));
    expect((await fileCellsIn(localFs, FIXTURES, names)).map((c) => [c.dir.slice(FIXTURES.length + 1), c.format])).toEqual([
      ['log_formats.json', 'inspect'],
      ['log_message_deduplication.eval', 'inspect'],
      ['log_read_sample.eval', 'inspect'],
      ['log_read_sample.json', 'inspect'],
      ['log_streaming.eval', 'inspect'],
      ['log_tool_call_error.json', 'inspect'],
    ]);
  });

  it('reads two samples over two epochs: a unit per sample and epoch, C and I as 1 and 0, the header\'s tokens', async () => {
    const { cell, units, labels, boardName } = await fixture('log_streaming.eval');
    expect(units).toEqual([
      { id: '2#2', status: 'scored', success: true, scored: true },
      { id: '2#1', status: 'scored', success: true, scored: true },
      { id: '1#1', status: 'scored', success: false, scored: true },
      { id: '1#2', status: 'scored', success: true, scored: true },
    ]);
    expect(cell).toMatchObject({ state: 'finished', budget: { unit: 'samples', used: 4, total: 4 }, episodes: { planned: 4, ended: 4, scored: 4, successes: 3 }, success_rate: 0.75, board: 'on', name: 'log_streaming' });
    expect(cell.tokens).toEqual({ input: 252, cached_input: null, output: 6, reasoning: null });
    expect(cell.problems).toEqual([]);
    expect(labels).toEqual({ harness: 'system_message → generate', model: 'azureai/Meta-Llama-3-1-405B-Instruct-jqf', condition: null, effort: null });
    expect(boardName).toBe('inspect popularity');
  });

  it('reads the same log as .eval and as .json to the same figures', async () => {
    const [zipped, json] = await Promise.all([fixture('log_read_sample.eval'), fixture('log_read_sample.json')]);
    for (const read of [zipped, json]) expect(read.cell).toMatchObject({ state: 'finished', episodes: { ended: 1, scored: 1, successes: 1 }, tokens: { input: 66, output: 3 } });
    expect(json.units).toEqual(zipped.units);
  });

  it('opens a sample as a transcript: each tool call with its result, the score with the answer, a tool\'s error said', async () => {
    const transcript = await inspect.capabilities.transcripts?.read(join(FIXTURES, 'log_message_deduplication.eval'), '0#1', context());
    const calls = transcript?.items.filter((i) => i.kind === 'call') ?? [];
    expect(calls[0]).toMatchObject({ name: 'bash', callId: 'hardcoded_0', arguments: '{\n  "cmd": "ls"\n}', output: expect.stringContaining('bin\nboot') });
    expect(transcript?.items[0]).toMatchObject({ kind: 'input', role: 'user', text: 'Guess the number' });
    // Log v3: each model call's input is ranges into the sample's message pool; resolved, the six were sent 1, 3, ... 11 messages.
    expect(transcript?.items.flatMap((i) => (i.kind === 'message' && i.sent ? [i.sent.messages] : []))).toEqual([1, 3, 5, 7, 9, 11]);
    // On the sample's one time axis (to the millisecond): the first call 1.76 s after its start (its tool event), the score last.
    expect(calls[0]?.offsetS).toBeCloseTo(45.377442 - 43.620839, 2);
    // Each call as long as its tool event ran, from its timestamp to its completion.
    expect(calls[0]?.durationS).toBeCloseTo(45.470832 - 45.377442, 3);
    expect(transcript?.items.at(-1)).toMatchObject({ kind: 'outcome', text: 'closeness_log (the outcome): 0', offsetS: expect.closeTo(45.729384 - 43.620839, 2) });
    const failing = await readCell(join(FIXTURES, 'log_tool_call_error.json'), 'inspect', context());
    const unit = failing.units[0]?.id as string;
    const errors = await inspect.capabilities.transcripts?.read(join(FIXTURES, 'log_tool_call_error.json'), unit, context());
    // Tool messages whose calls the log does not hold, each with its error.
    expect(errors?.items[1]).toEqual({ kind: 'message', role: 'tool', text: '...\nerror (timeout): ...' });
  });
});

describe('an Inspect log as Inspect writes it', () => {
  it('runs while it has no header: its summaries and samples counted against sample ids x epochs', async () => {
    const path = writeLog('run.eval', spec([{ id: 1, epoch: 1, scores: { match: 'C' }, usage: { 'openai/gpt-4o': { input_tokens: 100, output_tokens: 10, input_tokens_cache_read: 40 } } }]));
    const { cell } = await readCell(path, 'inspect', context());
    expect(cell).toMatchObject({ state: 'running', budget: { unit: 'samples', used: 1, total: 6 }, tokens: { input: 100, cached_input: 40, output: 10 } });
    expect((await readCell(path, 'inspect', context(Date.now() + 11 * 60_000))).cell.state).toBe('stale');
  });

  it('scores C, P, I, N, numbers and booleans; an error or an unknown value is not scored; a limit is said', async () => {
    const samples: LogSample[] = [
      { id: 1, epoch: 1, scores: { match: 'C' } },
      { id: 1, epoch: 2, scores: { match: 'P' } },
      { id: 2, epoch: 1, scores: { match: 'I' } },
      { id: 2, epoch: 2, scores: { match: 1 } },
      { id: 3, epoch: 1, scores: { match: true }, limit: 'token' },
      { id: 3, epoch: 2, scores: { match: 'maybe' } },
      { id: 4, epoch: 1, scores: {}, error: 'the sandbox went away' },
    ];
    const read = await readCell(writeLog('scores.eval', spec(samples, { sampleIds: [1, 2, 3, 4], status: 'success' })), 'inspect', context(), { detail: true });
    expect(read.units.map((u) => [u.id, u.status, u.success, u.scored])).toEqual([
      ['1#1', 'scored', true, true],
      ['1#2', 'scored', false, true],
      ['2#1', 'scored', false, true],
      ['2#2', 'scored', true, true],
      ['3#1', 'token limit of 10', true, true],
      ['3#2', 'unscored', null, false],
      ['4#1', 'error', null, false],
    ]);
    expect(read.cell).toMatchObject({ state: 'finished', episodes: { scored: 5, excluded: 2, successes: 3 }, success_rate: 0.6 });
    expect(read.cell.reward?.mean).toBeCloseTo((1 + 0.5 + 0 + 1 + 1) / 5);
    expect(read.cell.problems).toContainEqual(expect.objectContaining({ file: 'scores.eval', message: expect.stringContaining('4#1 (the sandbox went away)') }));
    // The value it cannot read is said, not only left out.
    expect(read.cell.problems).toContainEqual(expect.objectContaining({ file: 'scores.eval', message: '1 sample (3#2: "maybe") with a match value that is none of C, P, I, N, a number, true or false: not scored', severity: 'warning' }));
    expect(read.detail?.tables[0]?.rows[0]).toEqual(['match (the outcome)', 5, 0.75, 0.75]);
    // A sample with no usage has no token count (not 0).
    expect(read.detail?.episodes.map((e) => e.usage)).toEqual(Array(7).fill(null));
  });

  it('checks the header\'s accuracy against the samples, reduced as Inspect reduces: a mismatch takes the log off its board', async () => {
    const samples: LogSample[] = [
      { id: 1, epoch: 1, scores: { match: 'C' } },
      { id: 1, epoch: 2, scores: { match: 'I' } },
      { id: 2, epoch: 1, scores: { match: 'C' } },
    ];
    const honest = await readCell(writeLog('honest.eval', spec(samples, { sampleIds: [1, 2], status: 'success' })), 'inspect', context());
    expect(honest.cell.board).toBe('on');
    const lying = await readCell(writeLog('lying.eval', spec(samples, { sampleIds: [1, 2], status: 'success', accuracy: 0.9 })), 'inspect', context());
    expect(lying.cell.board).toBe('off');
    expect(lying.cell.problems).toContainEqual(expect.objectContaining({ message: 'its header says match accuracy 0.9, but its samples give 0.7500 (each sample\'s epochs averaged, then the mean)' }));
  });

  it('says a sample given twice, and a log that ended in error or was cancelled', async () => {
    const twice = writeLog('twice.eval', spec([{ id: 1, epoch: 1, scores: { match: 'C' } }, { id: 1, epoch: 1, scores: { match: 'I' } }], { status: 'success' }));
    const read = await readCell(twice, 'inspect', context());
    expect(read.cell.board).toBe('off');
    expect(read.cell.problems.map((p) => p.message)).toContainEqual(expect.stringMatching(/^sample 1#1 given more than once: summaries.json \[0\] and summaries.json \[1\]/));
    const failed = await readCell(writeLog('failed.eval', spec([], { status: 'error' })), 'inspect', context());
    expect(failed.cell.state).toBe('failed');
    expect(failed.cell.problems[0]).toMatchObject({ message: 'the eval ended in error: RuntimeError: the sandbox went away', tip: 'Traceback ...' });
    expect((await readCell(writeLog('cancelled.eval', spec([], { status: 'cancelled' })), 'inspect', context())).cell.state).toBe('cancelled');
  });

  it('leaves a negative token count out of every sum and takes the log off its board, naming the sample and the header', async () => {
    const usage = (input: number) => ({ 'openai/gpt-4o': { input_tokens: input, output_tokens: 5 } });
    const samples = [{ id: 1, epoch: 1, scores: { match: 'C' }, usage: usage(100) }, { id: 2, epoch: 1, scores: { match: 'C' }, usage: usage(-5000) }];
    const running = await readCell(writeLog('running.eval', spec(samples, { sampleIds: [1, 2], epochs: 1 })), 'inspect', context());
    expect(running.cell.tokens).toMatchObject({ input: 100, output: 10 });
    expect(running.cell.board).toBe('off');
    const named = 'model_usage.openai/gpt-4o.input_tokens';
    expect(running.integrity?.map((p) => `${p.file}: ${p.message}`)).toEqual([`_journal/summaries/1.json [1]: ${named} is -5000: an amount cannot be negative; left out of every sum`]);
    // Ended, the header's sum over the samples (-4900) is said too, and left out: no input count at all.
    const ended = await readCell(writeLog('ended.eval', spec(samples, { sampleIds: [1, 2], epochs: 1, status: 'success' })), 'inspect', context());
    expect(ended.cell.tokens).toMatchObject({ input: null, output: 10 });
    expect(ended.integrity?.map((p) => p.file)).toEqual(['summaries.json [1]', 'header.json']);
  });

  it('keeps its last good reading while a new zip is copied over it, and says so', async () => {
    const log = spec([{ id: 1, epoch: 1, scores: { match: 'C' } }]);
    const path = writeLog('live.eval', log);
    const ctx = { ...context(), jsonl: new JsonlCache() };
    expect((await readCell(path, 'inspect', ctx)).cell.episodes.ended).toBe(1);
    const next = zipOf(evalMembers({ ...log, samples: [...log.samples, { id: 2, epoch: 1, scores: { match: 'I' } }] }));
    writeFileSync(path, next.subarray(0, next.length - 40));
    const caught = await readCell(path, 'inspect', ctx);
    expect(caught.cell.episodes.ended).toBe(1);
    expect(caught.cell.problems).toContainEqual(expect.objectContaining({ file: 'live.eval', message: expect.stringMatching(/^being written \(.*\); showing its last good reading$/) }));
    writeFileSync(path, next);
    const whole = await readCell(path, 'inspect', ctx);
    expect([whole.cell.episodes.ended, whole.cell.problems]).toEqual([2, []]);
  });

  it('pairs two logs of one task on <id>#<epoch>: the counts and the exact p-value worked out by hand', async () => {
    const outcomes = { a: ['C', 'C', 'I', 'C', 'I', 'C'], b: ['I', 'I', 'I', 'C', 'C', 'I'] };
    const samples = (values: string[]) => values.map((v, i): LogSample => ({ id: Math.floor(i / 2) + 1, epoch: (i % 2) + 1, scores: { match: v } }));
    const [a, b] = await Promise.all([
      readCell(writeLog('a.eval', spec(samples(outcomes.a), { status: 'success' })), 'inspect', context()),
      readCell(writeLog('b.eval', spec(samples(outcomes.b), { model: 'anthropic/claude', status: 'success' })), 'inspect', context()),
    ]);
    const pairing = pairUnits(a.units, b.units);
    // By hand: only A right at 1#1, 1#2 and 3#2; only B at 3#1; both at 2#2; neither at 2#1. Exact two-sided p of 3 against 1: 2 x (1 + 4) / 16.
    expect(pairing.ok && pairing.table).toMatchObject({ pairs: 6, both: 1, only_a: 3, only_b: 1, neither: 1, p_value: 0.625 });
    expect(pairing.ok && pairing.table.discordant).toEqual([
      { id: '1#1', winner: 'a' },
      { id: '1#2', winner: 'a' },
      { id: '3#1', winner: 'b' },
      { id: '3#2', winner: 'a' },
    ]);
  });

  it('reads a log whose members are stored, not deflated (Python\'s zipfile writes so by default), as the same log deflated', async () => {
    const stored = join(tmp.path, 'stored.eval');
    const python = 'import sys, zipfile\nsrc = zipfile.ZipFile(sys.argv[1])\nwith zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_STORED) as out:\n    for m in src.infolist(): out.writestr(m.filename, src.read(m))';
    execFileSync(findTool('python3') ?? 'python3', ['-c', python, join(FIXTURES, 'log_streaming.eval'), stored]);
    const [a, b] = [await readCell(stored, 'inspect', context()), await fixture('log_streaming.eval')];
    expect(a.cell).toMatchObject({ state: 'finished', problems: [], episodes: b.cell.episodes, tokens: b.cell.tokens });
    expect(a.units).toEqual(b.units);
  });

  it('reads a log of more members than a plain zip counts (65,535) from its zip64 end records', async () => {
    const samples = Array.from({ length: 70_000 }, (_, i): LogSample => ({ id: i + 1, epoch: 1, scores: { match: i % 4 ? 'C' : 'I' } }));
    const read = await readCell(writeLog('wide.eval', spec(samples, { sampleIds: samples.map((s) => s.id), epochs: 1, status: 'success' })), 'inspect', context());
    expect(read.cell).toMatchObject({ state: 'finished', problems: [], budget: { used: 70_000, total: 70_000 }, episodes: { scored: 70_000, successes: 52_500 } });
    // 70,000 members written and read: seconds on a busy machine.
  });
});
