// Property tests: whatever bytes arrive, split however the reads happen to split them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineTailer } from './lines';
import { append } from '../../shared/arrays';

/** Cuts `bytes` at the given points: how reads of a growing file hand them over. */
function split(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Buffer[] = [];
  let last = 0;
  for (const point of points) {
    parts.push(bytes.subarray(last, point));
    last = point;
  }
  parts.push(bytes.subarray(last));
  return parts;
}

const record = fc.dictionary(fc.string({ maxLength: 8 }).filter((k) => k !== '__proto__'), fc.oneof(fc.integer(), fc.string({ maxLength: 20 }), fc.boolean()), { maxKeys: 4 });
const junk = fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a).toString('latin1').replace(/\n/g, ''));

describe('the line tailer, fuzzed', () => {
  it('delivers each complete line once, in order, however the bytes are split; a partial last line waits', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(record.map((r) => ({ ok: true, text: JSON.stringify(r) })), junk.map((text) => ({ ok: false, text }))), { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 20 }), fc.string({ maxLength: 10 }), (lines, cuts, partial) => {
        const text = lines.map((l) => `${l.text}\n`).join('') + partial.replace(/\n/g, '');
        const tailer = new LineTailer('log.jsonl');
        const seen: { line: number | null; value: unknown }[] = [];
        const problems: (number | undefined)[] = [];
        for (const part of split(Buffer.from(text), cuts)) {
          const chunk = tailer.push(part);
          append(seen, chunk.records.map((r) => ({ line: r.line, value: r.value })));
          append(problems, chunk.problems.map((p) => p.line));
        }
        const expected = lines.flatMap((l, i) => {
          if (l.text.trim() === '') return [];
          try {
            const value: unknown = JSON.parse(l.text);
            return value !== null && typeof value === 'object' && !Array.isArray(value) ? [{ line: i + 1, value }] : [];
          } catch {
            return [];
          }
        });
        expect(seen).toEqual(expected);
        // Every line that is not a record is a problem naming its line; none twice.
        expect(new Set(problems).size).toBe(problems.length);
        expect(seen.length + problems.length).toBe(lines.filter((l) => l.text.trim() !== '').length);
      }),
      { numRuns: 300 },
    );
  });
});
