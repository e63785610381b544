import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { outcomesOf } from './board-outcomes';
import { agentUnits, encodeUnits } from './units';
import type { EpisodeUnit } from './model';

describe('the units kept for the board', () => {
  it('come back as the board reads them, each id its own episode and its outcome whole, whatever the id holds but tabs and newlines', () => {
    const unit = fc.record({ id: fc.string().filter((s) => !/[\t\n]/.test(s)), status: fc.string().filter((s) => !/[\t\n]/.test(s)), success: fc.constantFrom(true, false, null), scored: fc.boolean() });
    const bit = (set: Int32Array, i: number) => ((set[i >>> 5] as number) >>> (i & 31)) & 1;
    fc.assert(
      fc.property(fc.uniqueArray(unit, { minLength: 1, selector: (u) => u.id }), (units) => {
        // One cell: its episodes are numbered in the order they are written.
        const read = outcomesOf([{ units: encodeUnits(units) }]);
        expect(read.words).toBe(Math.ceil(units.length / 32));
        expect(units.map((_, i) => [bit(read.ended, i), bit(read.scored, i), bit(read.succeeded, i)])).toEqual(units.map((u) => [1, u.scored ? 1 : 0, u.scored && u.success === true ? 1 : 0]));
      }),
    );
    expect(outcomesOf([{ units: encodeUnits([]) }]).words).toBe(0);
  });

  it('are each line as one template a unit made it, a tab or newline of an id a space', () => {
    const SUCCESS = { true: '1', false: '0', null: '-' } as const;
    const reference = (units: EpisodeUnit[]) => units.map((u) => `${u.id.replace(/[\t\n]/g, ' ')}\t${SUCCESS[String(u.success) as keyof typeof SUCCESS]}${u.scored ? 1 : 0}`).join('\n');
    const unit = fc.record({ id: fc.string({ unit: fc.constantFrom('a', '7', '\t', '\n', ' ', '/', 'é') }), status: fc.string(), success: fc.constantFrom(true, false, null), scored: fc.boolean() });
    fc.assert(
      fc.property(fc.array(unit), (units) => {
        expect(encodeUnits(units)).toBe(reference(units));
      }),
    );
  });
});

describe("one agent's units of a collection of several", () => {
  it('takes the units named for it, as its side names them, and none of an agent whose name starts with its own', () => {
    const units = [
      { id: 'a/0#0', status: 'rollout', success: true, scored: true },
      { id: 'a/b/0#0', status: 'rollout', success: false, scored: true },
      { id: 'a/1#0', status: 'failed: timeout', success: null, scored: false },
      { id: 'b/0#0', status: 'rollout', success: false, scored: true },
    ];
    expect(agentUnits(encodeUnits(units), 'a')).toBe(encodeUnits([{ ...units[0], id: '0#0' }, { ...units[2], id: '1#0' }] as typeof units));
    expect(agentUnits(encodeUnits(units), 'a/b')).toBe(encodeUnits([{ ...units[1], id: '0#0' }] as typeof units));
    expect(agentUnits(encodeUnits(units), 'c')).toBe('');
  });
});
