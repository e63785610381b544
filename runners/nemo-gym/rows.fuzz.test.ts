// The row reader against JSON.parse, row by row and field by field: rows whose members come in any order,
// with the keys the reader looks for (usage, reward, response) at other depths, escapes, long strings and
// text beyond ASCII, numbers spelled and rows spaced as any writer does, between blank lines and before a
// partial one; the same lines read as materialized inputs give the same units.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plannedLines } from './planned';
import { summarizeLines } from './rows';
import { expected, rowsIn, type Row } from './testing';

/** A number as a writer other than JSON.stringify may spell it (1.0, 1e2): written as it is. */
class Spelled {
  constructor(readonly text: string) {}
}
const spelledNumber = fc.constantFrom('1.0', '1e2', '1E+2', '10e-1', '-5.0', '0.0', '2e0', '3.00e+1').map((text) => new Spelled(text));

/** JSON as a writer may space it: a run of spaces and tabs between tokens, never a line break. */
function spaced(value: unknown, gap: string): string {
  if (value instanceof Spelled) return value.text;
  if (Array.isArray(value)) return `[${gap}${value.map((v) => spaced(v, gap)).join(`${gap},${gap}`)}${gap}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}${gap}:${gap}${spaced(v, gap)}`);
    return `{${gap}${members.join(`${gap},${gap}`)}${gap}}`;
  }
  return JSON.stringify(value);
}

// Text that trips a reader working on bytes: quotes, backslashes, braces, the keys it looks for, non-ASCII.
const tricky = fc.constantFrom('"usage": {', '\\', '\\"', '}', '{', '[', ']', ',', ':', '"response":', '"reward": 1', 'ü', '√2·π', '日本語', '😀', '\u2028', '\n', '\t', '"', 'usage', ' ');
const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 3, arbitrary: fc.array(fc.oneof(tricky, fc.string({ maxLength: 4 })), { maxLength: 12 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: fc.tuple(tricky, fc.integer({ min: 100, max: 900 })).map(([part, n]) => part.repeat(n)) },
);
const key = fc.oneof(fc.constantFrom('usage', 'reward', 'response', 'model', 'input_tokens', '_ng_task_index', 'agent_ref', 'resolved', 'judge', 'metadata', 'é-key', 'a"b', 'back\\slash', '0', '17'), fc.string({ maxLength: 6 }));
const usage = fc.record(
  { input_tokens: fc.oneof(fc.nat(), fc.constant(null), fc.integer({ min: -5, max: -1 }), fc.constantFrom(2 ** 31, -(2 ** 31), 2 ** 40, 2 ** 53 - 1, 1.5)), output_tokens: fc.nat(), input_tokens_details: fc.record({ cached_tokens: fc.nat() }), output_tokens_details: fc.record({ reasoning_tokens: fc.nat() }) },
  { requiredKeys: [] },
);
// Values nest the keys the reader looks for at other depths: a judge's usage, a metadata's response.
const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    spelledNumber,
    fc.boolean(),
    fc.constant(null),
    usage,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(key, tie('v'), { maxKeys: 4 }),
  ),
})).v;
const response = fc.record(
  { id: text, model: fc.oneof(text, fc.integer()), output: fc.array(fc.record({ role: fc.constantFrom('assistant', 'user'), content: text, usage: value }, { requiredKeys: ['role', 'content'] }), { maxLength: 5 }), usage, status: text, extra: value },
  { requiredKeys: ['output'] },
);
const row: fc.Arbitrary<Row> = fc
  .record(
    {
      responses_create_params: fc.record({ input: fc.array(fc.record({ role: fc.constant('user'), content: text }), { maxLength: 3 }) }),
      response: fc.oneof({ weight: 5, arbitrary: response }, { weight: 1, arbitrary: value }),
      reward: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 1 }), fc.constantFrom(0, 1, true, 'n/a', null), spelledNumber),
      // Whole numbers past what 32 bits hold, which the reader keeps apart.
      _ng_task_index: fc.oneof({ weight: 20, arbitrary: fc.nat(500) }, { weight: 1, arbitrary: value }, { weight: 1, arbitrary: fc.constantFrom(2 ** 30, 2 ** 31, -(2 ** 31), 2 ** 40, -(2 ** 53) + 1) }),
      _ng_rollout_index: fc.oneof(fc.nat(8), value, spelledNumber),
      _ng_attempt_index: fc.nat(3),
      _ng_failure_class: fc.constantFrom('sandbox_timeout', 'rate_limited'),
      _ng_failure_terminal: fc.boolean(),
      // Most rows of a collection name one agent in the same bytes: refs alike in length but not in bytes among them.
      agent_ref: fc.oneof({ weight: 3, arbitrary: fc.constantFrom({ name: 'ab' }, { name: 'ac' }, { name: 'a"' }, { name: 'ab', type: 'x' }, { name: 7 }) }, fc.record({ name: fc.oneof(text, fc.integer()) }), value),
      judge: fc.record({ usage, verdict: text }),
      ng_trajectory: fc.array(value, { maxLength: 2 }),
      resolved: fc.boolean(),
      notes: text,
      env: fc.dictionary(key, value, { maxKeys: 4 }),
    },
    { requiredKeys: ['_ng_task_index'] },
  )
  .chain((r) => fc.shuffledSubarray(Object.entries(r), { minLength: Object.keys(r).length }).map((entries) => Object.fromEntries(entries) as Row));

const blank = fc.constantFrom('', ' ', '\t', '  \t ');
const gaps = fc.array(fc.constantFrom('', '', '', ' ', '  ', '\t', ' \t '), { minLength: 1, maxLength: 8 });

describe('the NeMo Gym row reader, against JSON.parse of each row', () => {
  it('gives what a whole parse gives for 10,000 generated rows, field by field, and holds back a partial last line', () => {
    let rows = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(row, fc.option(blank, { freq: 4 })), { minLength: 8, maxLength: 20 }), gaps, fc.string({ maxLength: 40 }), (lines, spacing, partial) => {
        let body = '';
        const truth: { line: number; offset: number; row: Row; parsed: Row; gap: string }[] = [];
        let line = 1;
        for (const [r, after] of lines) {
          const gap = spacing[truth.length % spacing.length] as string;
          truth.push({ line, offset: Buffer.byteLength(body), row: r, parsed: JSON.parse(spaced(r, '')) as Row, gap });
          body += `${spaced(r, gap)}\n`;
          line++;
          if (after !== null) {
            body += `${after}\n`;
            line++;
          }
        }
        const tail = partial.replace(/\n/g, '');
        const bytes = Buffer.from(body + tail);
        const chunk = summarizeLines(bytes, 'rollouts.jsonl', 1, 0);
        expect(chunk.consumed).toBe(Buffer.byteLength(body));
        const skipped = truth.filter((t) => !Number.isInteger(t.parsed._ng_task_index));
        expect(chunk.problems.map((p) => p.line)).toEqual(skipped.map((t) => t.line));
        const kept = truth.filter((t) => Number.isInteger(t.parsed._ng_task_index));
        const read = rowsIn(chunk.records);
        expect(read).toHaveLength(kept.length);
        read.forEach((row, i) => {
          const want = kept[i] as (typeof kept)[number];
          const { fields, largeFields, ...rest } = expected(want.parsed, (_, key) => Buffer.byteLength(spaced(want.row[key], want.gap)));
          expect({ line: row.line, offset: row.offset }).toEqual({ line: want.line, offset: want.offset });
          for (const [name, v] of Object.entries(rest)) expect([name, row[name as keyof typeof row]]).toEqual([name, v]);
          expect(row.largeFields).toEqual(largeFields);
          expect(row.fields).toEqual(fields);
          // One field asked for alone (as the Episodes tab asks for a run time) is the same as read with the rest.
          for (const name of [...Object.keys(fields), 'not a field']) expect([name, chunk.records[0]?.field(i, name)]).toEqual([name, fields[name]]);
        });
        // The same rows as materialized inputs: each the unit it plans.
        const planned = plannedLines(bytes, 'inputs.jsonl', 1);
        expect(planned.consumed).toBe(Buffer.byteLength(body));
        expect(planned.problems.map((p) => p.line)).toEqual(skipped.map((t) => t.line));
        expect(planned.records).toEqual(read.map(({ line, task, repeat, agent }) => ({ line, task, repeat, agent })));
        rows += lines.length;
      }),
      { seed: 42, numRuns: 800 },
    );
    expect(rows).toBeGreaterThanOrEqual(10_000);
  });
});
