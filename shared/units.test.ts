import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUnits, eachUnit, encodeUnits } from './units';

describe('the units kept for the board', () => {
  it('come back as they went, whatever their ids and statuses hold but tabs and newlines', () => {
    const unit = fc.record({ id: fc.string().filter((s) => !/[\t\n]/.test(s)), status: fc.string().filter((s) => !/[\t\n]/.test(s)), success: fc.constantFrom(true, false, null), scored: fc.boolean() });
    fc.assert(
      fc.property(fc.array(unit, { minLength: 1 }), (units) => {
        expect(decodeUnits(encodeUnits(units))).toEqual(units);
        const seen: [string, boolean | null, boolean][] = [];
        const text = encodeUnits(units);
        eachUnit(text, (start, end, success, scored) => seen.push([text.slice(start, end), success === '1' ? true : success === '0' ? false : null, scored]));
        expect(seen).toEqual(units.map((u) => [u.id, u.success, u.scored]));
      }),
    );
    expect(decodeUnits(encodeUnits([]))).toEqual([]);
  });
});
