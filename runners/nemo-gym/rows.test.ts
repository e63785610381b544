import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plannedLines } from './planned';
import { RowBlock } from './row-block';
import { summarizeLines } from './rows';
import { expected, rowsIn, type Row } from './testing';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const REAL = ['responses_api_agents/claude_code_agent/data/example_math_rollouts.jsonl', 'resources_servers/workplace_assistant/data/example_rollouts.jsonl', 'resources_servers/circle_click/data/example_rollouts.jsonl'].flatMap((file) =>
  readFileSync(join(FIXTURES, file), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>),
).map((row, i) => ({ ...row, _ng_task_index: row._ng_task_index ?? i }));
const record = (value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Row) : {});

const summarised = (rows: Row[]) => {
  const bytes = Buffer.from(rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const chunk = summarizeLines(bytes, 'c.jsonl', 1, 0);
  expect(chunk.problems).toEqual([]);
  expect(chunk.consumed).toBe(bytes.length);
  return rowsIn(chunk.records);
};

describe('a NeMo Gym row read from its bytes around its conversation', () => {
  it('gives what a whole parse of the row gives, for real rows and rows of other shapes after their response', () => {
    const base = REAL[0] as Row;
    const rows: Row[] = [
      ...REAL,
      // Text beyond ASCII in the members after the response, and in the model's name.
      { ...base, expected_answer: 'ü = √2 · π', agent_ref: { name: 'agént' }, response: { ...record(base.response), model: 'modèle-1' } },
      // A long field after the response is kept as its size, the short ones as they are.
      { ...base, model_patch: `diff --git a/ß b/ß\n${'+ line\n'.repeat(80)}`, resolved: true },
      // A key written with an escape; a usage with every count.
      { ...base, ['re\u0073olved']: false, response: { ...record(base.response), usage: { input_tokens: 7, input_tokens_details: { cached_tokens: 3 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 2 } } } },
      // Nothing after the response but the bookkeeping; a reward that is no number.
      { responses_create_params: base.responses_create_params, response: base.response, _ng_task_index: 9, reward: 'n/a' },
    ];
    const read = summarised(rows);
    expect(read).toHaveLength(rows.length);
    read.forEach((summary, i) => expect(summary).toMatchObject(expected(rows[i] as Row)));
    expect(read.map((r) => r.line)).toEqual(rows.map((_, i) => i + 1));
  });

  it('reads a chunk whole from its first row whose members come before its response, as the check against a whole read finds', () => {
    const base = REAL[0] as Row;
    const { responses_create_params, response, ...after } = base;
    const before = (task: number) => ({ resolved: task % 2 === 0, ...after, responses_create_params, response, _ng_task_index: task });
    const read = summarised([before(0), before(1), before(2)]);
    expect(read.map((r) => r.fields.resolved)).toEqual([true, false, true]);
  });

  it('reads a row whose output holds "usage" 40,000 times after its usage in one pass, and the rows beside it', () => {
    const response = { id: 'r', usage: { input_tokens: 100 }, model: 'm', output: [{ role: 'assistant', content: Array.from({ length: 40_000 }, () => 'usage') }] };
    const rows = [0, 1, 2].map((task) => ({ responses_create_params: { input: [] }, response, reward: task % 2, _ng_task_index: task }));
    expect(summarised(rows).map((r) => [r.task, r.reward, r.usage?.input])).toEqual([
      [0, 0, 100],
      [1, 1, 100],
      [2, 0, 100],
    ]);
  });

  it('reads a row of 200,000 members of its own as a whole parse does, each found by its key, not by a search of those before it', () => {
    const wide: Row = { _ng_task_index: 0, ...Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`k${i}`, i])), reward: 1 };
    const [row] = summarised([wide]);
    expect([row?.task, row?.reward, Object.keys(row?.fields ?? {}).length, row?.fields.k199999]).toEqual([0, 1, 200_000, 199_999]);
  });

  it('passes over blank lines and keeps each row at its line and byte', () => {
    const line = (task: number) => `${JSON.stringify({ ...REAL[0], _ng_task_index: task })}\n`;
    const text = `${line(0)}\n  \t\n${line(1)}{"partial":`;
    const chunk = summarizeLines(Buffer.from(text), 'c.jsonl', 10, 100);
    expect(rowsIn(chunk.records).map((r) => [r.line, r.offset, r.task])).toEqual([
      [10, 100, 0],
      [13, 100 + Buffer.byteLength(`${line(0)}\n  \t\n`), 1],
    ]);
    expect(chunk.consumed).toBe(Buffer.byteLength(text) - '{"partial":'.length);
    expect(chunk.lines).toBe(4);
  });

  it('keeps a block whole across threads, its line numbers moved on by the lines before its part, past 2^30 too', () => {
    const text = [0, 1].map((task) => `${JSON.stringify({ ...REAL[0], _ng_task_index: task, resolved: task === 1 })}\n`).join('');
    const [block] = summarizeLines(Buffer.from(text), 'c.jsonl', 1, 500).records;
    const before = rowsIn([block as RowBlock]);
    const { packed, transfer } = (block as RowBlock).pack();
    for (const shift of [0, 41, 2 ** 30 - 1, 2 ** 40]) {
      const crossed = RowBlock.unpack(structuredClone(packed, { transfer: shift === 2 ** 40 ? transfer : [] }), shift);
      expect(rowsIn([crossed])).toEqual(before.map((row) => ({ ...row, line: row.line + shift })));
    }
  });
});

describe('a materialized input read as the unit it plans', () => {
  const INPUT = JSON.parse(readFileSync(join(FIXTURES, 'responses_api_agents/claude_code_agent/data/example_math_rollouts_materialized_inputs.jsonl'), 'utf8').split('\n')[0] as string) as Row;
  const { _ng_task_index: _t, _ng_rollout_index: _r, agent_ref: _a, ...rest } = INPUT;
  const planned = (rows: Row[]) => plannedLines(Buffer.from(rows.map((r) => `${JSON.stringify(r)}\n`).join('')), 'inputs.jsonl', 1);

  it('takes the unit from wherever the row keeps its keys, and never from a member that holds the same keys', () => {
    const rows: Row[] = [
      // As the collector writes them: the unit's keys last.
      { ...rest, _ng_task_index: 3, _ng_rollout_index: 1, agent_ref: { name: 'agént' } },
      // The keys first, before the input.
      { _ng_rollout_index: 2, agent_ref: { name: 'b' }, _ng_task_index: 4, ...rest },
      // A member after the keys holding keys of the same names.
      { ...rest, _ng_task_index: 5, agent_ref: { name: 'c' }, metadata: { _ng_task_index: 99, _ng_rollout_index: 98, agent_ref: { name: 'no' } } },
      // No agent, no repeat.
      { ...rest, _ng_task_index: 6 },
    ];
    const read = planned(rows);
    expect(read.problems).toEqual([]);
    expect(read.records).toEqual([
      { line: 1, task: 3, repeat: 1, agent: 'agént' },
      { line: 2, task: 4, repeat: 2, agent: 'b' },
      { line: 3, task: 5, repeat: null, agent: 'c' },
      { line: 4, task: 6, repeat: null, agent: null },
    ]);
  });

  it('names each input that plans no unit by file and line', () => {
    // Line 4: a row cut off where a crash left it, the next written on after it: its end is a whole row's.
    const whole = JSON.stringify({ ...rest, _ng_task_index: 7, _ng_rollout_index: 0 });
    const text = `${JSON.stringify({ ...rest, _ng_task_index: 'x' })}\nnot json\n${JSON.stringify(rest)}\n${whole.slice(0, 40)}${whole}\n  ${whole} \n`;
    const read = plannedLines(Buffer.from(text), 'inputs.jsonl', 1);
    expect(read.problems.map((p) => [p.line, p.message])).toEqual([
      [1, '_ng_task_index is not a whole number; skipped'],
      [2, 'not a JSON object; skipped'],
      [3, 'no _ng_task_index; skipped'],
      [4, 'not a JSON object; skipped'],
    ]);
    expect(read.records).toEqual([{ line: 5, task: 7, repeat: 0, agent: null }]);
  });
});
