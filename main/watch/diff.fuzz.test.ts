// The episode rows' fast comparison against their JSON, keys sorted: rows with fields missing, undefined or
// in any order, nested tokens and facts, numbers that JSON writes alike (0 and -0) or not.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EpisodeRow } from '../../shared/cell-detail';
import { sameRow } from './diff';

/** JSON with every object's keys sorted: the same text for the same fields in any order. */
function sorted(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v));
}

const number = fc.oneof(fc.constantFrom(0, -0, 1, 2, 1.5, 1e21), fc.integer({ min: -3, max: 3 }));
const small = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, fc.constant(null), fc.constant(undefined));
const tokens = fc.record({ input: small(number), cached: small(number), output: small(number) }, { requiredKeys: [] });
const fact = fc.record({ label: fc.constantFrom('task', 'agent'), value: fc.constantFrom('a', 'b', '') });
const fields = {
  id: fc.constantFrom('1', '2'),
  status: fc.constantFrom('running', 'evaluated'),
  success: small(fc.boolean()),
  scored: small(fc.boolean()),
  toolCalls: small(number),
  actions: small(number),
  wallS: small(number),
  t: small(number),
  usage: small(tokens),
  note: small(fc.constantFrom('v001', '', 'v002')),
  hasEvents: small(fc.boolean()),
  group: small(fc.constantFrom('a', 'b')),
  facts: small(fc.array(fact, { maxLength: 2 })),
  files: small(fc.array(fc.constantFrom('trial.log', 'exception.txt'), { maxLength: 2 })),
};
const row = fc.record(fields, { requiredKeys: [] }).map((r) => r as unknown as EpisodeRow);
/** A second row: another, or the first again, its fields reversed, one changed (or made undefined) or dropped. */
const pair = row.chain((a) =>
  fc.oneof(
    fc.tuple(fc.constant(a), row),
    fc.tuple(fc.constant(a), fc.constant({ ...a })),
    fc.tuple(fc.constant(a), fc.constant(Object.fromEntries(Object.entries(a).reverse()) as unknown as EpisodeRow)),
    fc.tuple(fc.constant(a), fc.tuple(fc.constantFrom(...Object.keys(fields)), fc.oneof(...Object.values(fields) as fc.Arbitrary<unknown>[])).map(([key, value]) => ({ ...a, [key]: value }) as EpisodeRow)),
    fc.tuple(fc.constant(a), fc.constantFrom(...Object.keys(fields)).map((key) => Object.fromEntries(Object.entries(a).filter(([k]) => k !== key)) as unknown as EpisodeRow)),
  ),
);

describe('sameRow', () => {
  it('says two rows are the same exactly when their JSON, keys sorted, is', () => {
    fc.assert(
      fc.property(pair, ([a, b]) => {
        expect(sameRow(a, b)).toBe(sorted(a) === sorted(b));
        expect(sameRow(b, a)).toBe(sorted(a) === sorted(b));
      }),
      { numRuns: 5000 },
    );
  });

  it('a row not there before is new', () => {
    expect(sameRow(undefined, { id: '1', status: 'running', success: null, scored: true, toolCalls: null, actions: null, wallS: null, t: null, note: null, hasEvents: true })).toBe(false);
  });
});
