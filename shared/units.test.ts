import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { outcomesOf } from './board-outcomes';
import { encodeUnits } from './units';

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
});
