// A collection against broken and random input, as every other format is (runners/broken.test.ts,
// runners/adapters.fuzz.test.ts): problems naming the file and line, never a throw, the rest counted.
import fc from 'fast-check';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keySet, MemberSpans, memberSpans, NOT_SCALAR, scalarAt, scanMembers, type KeySet } from '../common/json-bytes';
import { readCell } from '../read';
import { context, jsonl, tempDir } from '../testing';

const REAL = join(import.meta.dirname, 'fixtures/responses_api_agents/claude_code_agent/data/example_math_rollouts.jsonl');
const realLines = readFileSync(REAL, 'utf8').trim().split('\n');

let tmp: ReturnType<typeof tempDir>;
beforeAll(() => (tmp = tempDir()));
afterAll(() => tmp.remove());
let n = 0;
const fresh = () => join(tmp.path, `c${n++}.jsonl`);

/** `scanMembers` into Maps of their own, with the members of the member `within` (of the keys in `withinOnly`). */
function memberSpansWithin(bytes: Buffer, within: string, withinOnly?: KeySet) {
  const [spans, inner] = [new MemberSpans(), new MemberSpans()];
  return scanMembers(bytes, 0, bytes.length, spans, within, inner, withinOnly) ? { spans: spans.toMap(), inner: inner.toMap() } : null;
}

describe('the span scanner', () => {
  it('finds every top-level member of any JSON object, each span parsing to its value, however it is spaced', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.constantFrom(undefined, 2, '\t'), (value, space) => {
        const bytes = Buffer.from(JSON.stringify(value, null, space));
        const spans = memberSpans(bytes, 0, bytes.length);
        expect([...(spans?.keys() ?? [])]).toEqual(Object.keys(value));
        for (const [key, span] of spans ?? []) expect(JSON.parse(bytes.toString('utf8', span.start, span.end))).toEqual(JSON.parse(JSON.stringify(value[key])));
      }),
      { numRuns: 300 },
    );
  });

  it("finds a member's own members (all, or some keys') in the same pass as a scan of its span would, whatever the member holds", () => {
    const member = fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue());
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), member, fc.option(member), fc.constantFrom(undefined, 2), (value, response, again, space) => {
        // The member among others, maybe twice (the last value stands); the text may also be cut anywhere.
        const text = JSON.stringify({ ...value, response }, null, space);
        const twice = again === null ? text : `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}"response":${JSON.stringify(again)}}`;
        for (const bytes of [Buffer.from(twice), Buffer.from(twice.slice(0, -1))]) {
          const found = memberSpansWithin(bytes, 'response');
          const spans = memberSpans(bytes, 0, bytes.length);
          expect(found?.spans ?? null).toEqual(spans);
          const span = spans?.get('response');
          const inner = found && span ? (memberSpans(bytes, span.start, span.end) ?? new Map()) : null;
          if (inner) expect(found?.inner).toEqual(inner);
          // Some of its keys only (every other one, and one it may not have): the same spans of those, the rest left out.
          const keep = [...Object.keys(typeof response === 'object' && response !== null && !Array.isArray(response) ? response : {}).filter((_, i) => i % 2 === 0), 'usage'];
          const some = memberSpansWithin(bytes, 'response', keySet(keep));
          expect(some?.spans ?? null).toEqual(spans);
          if (inner) expect(some?.inner).toEqual(new Map([...inner].filter(([key]) => keep.includes(key))));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('says a cut-off object is none', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }), fc.nat(), (value, cut) => {
        const text = JSON.stringify(value);
        const bytes = Buffer.from(text.slice(0, cut % text.length));
        expect(memberSpans(bytes, 0, bytes.length)).toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});

describe('a member read without JSON.parse (scalarAt)', () => {
  // Bytes that make and break numbers, words and strings: signs, exponents, leading zeros, escapes, control
  // characters, text beyond ASCII and bytes that are no UTF-8.
  const piece = fc.oneof(
    fc.constantFrom('0', '1', '7', '9', '-', '+', '.', 'e', 'E', '"', '\\', '\\"', '\\u00e9', 'true', 'false', 'null', 'tru', 'nul', ' ', '\t', '\n', '\u0001', 'x', 'é', '日', '😀'),
    fc.integer({ min: -(2 ** 53), max: 2 ** 53 }).map(String),
    fc.constantFrom(Buffer.from([0xff]), Buffer.from([0xc3]), Buffer.from([0xe6, 0x97])),
  );
  const spelled = fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))));
  const quoted = fc.array(piece, { maxLength: 40 }).map((parts) => Buffer.concat([Buffer.from('"'), ...parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)), Buffer.from('"')]));
  const literal = fc.constantFrom('true', 'false', 'null', '0', '-0', '-', '01', '1.0', '1e2', '123456789012345', '1234567890123456', `"${'a'.repeat(64)}"`, `"${'a'.repeat(65)}"`).map((t) => Buffer.from(t));

  it('gives what JSON.parse gives for 20,000 spellings of numbers, words and strings, or leaves the span to it', () => {
    let read = 0;
    fc.assert(
      fc.property(fc.oneof(spelled, quoted, literal), fc.nat(3), fc.nat(3), (value, before, after) => {
        // Within bytes around it, as a member is within its row.
        const bytes = Buffer.concat([Buffer.from('x'.repeat(before)), value, Buffer.from('"'.repeat(after))]);
        const got = scalarAt(bytes, before, before + value.length);
        if (got === NOT_SCALAR) return;
        read++;
        expect(Object.is(got, JSON.parse(value.toString('utf8')))).toBe(true);
      }),
      { seed: 7, numRuns: 20_000 },
    );
    // Most such spans are not JSON: the test holds only if enough took the fast path.
    expect(read).toBeGreaterThan(4000);
  });
});

describe('nemo-gym, fuzzed', () => {
  it('reads real rows among random lines and cut rows: each bad line a problem with its line, every whole row counted', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.constantFrom(...realLines), fc.jsonValue().map((v) => JSON.stringify(v)), fc.nat(3000).map((cut) => (realLines[cut % realLines.length] as string).slice(0, cut))), { maxLength: 12 }),
        async (lines) => {
          const path = fresh();
          const text = lines.map((l) => l.replace(/\n/g, ' ')).join('\n');
          writeFileSync(path, `${text}\n`);
          const { cell } = await readCell(path, 'nemo-gym', context(), { detail: true });
          // What a plain JSON reader makes of the same lines.
          const units = new Set<string>();
          let bad = 0;
          let repeated = 0;
          for (const line of text.split('\n')) {
            if (line.trim() === '') continue;
            let value: unknown;
            try {
              value = JSON.parse(line);
            } catch {
              bad++;
              continue;
            }
            const row = value as Record<string, unknown>;
            if (typeof value !== 'object' || value === null || Array.isArray(value) || !Number.isInteger(row._ng_task_index)) bad++;
            else {
              const unit = `${row._ng_task_index}#${row._ng_rollout_index}`;
              if (units.has(unit)) repeated++;
              units.add(unit);
            }
          }
          expect(cell.budget.used).toBe(units.size);
          expect(cell.problems.filter((p) => p.file === basename(path) && p.line !== undefined)).toHaveLength(bad + repeated);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('nemo-gym with broken input', () => {
  it('binary junk and a malformed line: problems with their line numbers, the good row counted', async () => {
    const path = fresh();
    writeFileSync(path, Buffer.concat([Buffer.from('\x00\xff\xfe junk\n{"a": \n'), Buffer.from(`${realLines[0]}\n`)]));
    const { cell } = await readCell(path, 'nemo-gym', context());
    expect(cell.problems.map((p) => p.line)).toEqual([1, 2]);
    expect(cell.budget.used).toBe(1);
  });

  it('3.6 MB of nesting, and a 50 MB line: a problem each, nothing built, no throw', async () => {
    const path = fresh();
    const deep = `{"a":${'['.repeat(600_000)}${']'.repeat(600_000)}}`;
    writeFileSync(path, `${deep}\n${'a'.repeat(50 * 1024 * 1024)}\n${realLines[1]}\n`);
    const { cell } = await readCell(path, 'nemo-gym', context());
    expect(cell.problems.map((p) => [p.line, p.message])).toEqual([
      [1, 'no _ng_task_index; skipped'],
      [2, 'not a JSON object; skipped'],
    ]);
    expect(cell.budget.used).toBe(1);
  });

  it('reads a row longer than a read step (a whole SWE conversation): counted, its long field kept as its size', async () => {
    const path = fresh();
    const row = { ...JSON.parse(realLines[0] as string), model_patch: 'x'.repeat(12 * 1024 * 1024) };
    writeFileSync(path, jsonl([row, JSON.parse(realLines[1] as string)]));
    const { cell, detail } = await readCell(path, 'nemo-gym', context(), { detail: true });
    expect([cell.budget.used, cell.problems]).toEqual([2, []]);
    const rollouts = detail?.tables.find((t) => t.id === 'rollouts');
    expect(rollouts?.rows[0]?.[(rollouts?.columns ?? []).indexOf('model_patch')]).toBe('(12,582,914 chars)');
  });

  it.each([
    ['truncated', '[{"agent_ref": {"name": "x"}, "agent_metr'],
    ['binary junk', '\x00\xff\xfe\x89PNG'],
    ['an object of the wrong shape', '{"mean/reward": "high"}'],
  ])('an aggregate %s: a problem naming it', async (_kind, text) => {
    const path = fresh();
    writeFileSync(path, jsonl([JSON.parse(realLines[0] as string)]));
    writeFileSync(path.replace(/\.jsonl$/, '_aggregate_metrics.json'), text);
    const { cell } = await readCell(path, 'nemo-gym', context());
    expect(cell.problems.map((p) => p.file)).toContain(basename(path).replace(/\.jsonl$/, '_aggregate_metrics.json'));
  });

  it('a collection whose files vanished: gone, no throw', async () => {
    expect((await readCell(join(tmp.path, 'nothing', 'x.jsonl'), 'nemo-gym', context())).gone).toBe(true);
  });
});
