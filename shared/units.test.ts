import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eachUnit, encodeUnits } from './units';

describe('the units kept for the board', () => {
  it('come back as the board reads them, ids and outcomes, whatever their ids hold but tabs and newlines', () => {
    const unit = fc.record({ id: fc.string().filter((s) => !/[\t\n]/.test(s)), status: fc.string().filter((s) => !/[\t\n]/.test(s)), success: fc.constantFrom(true, false, null), scored: fc.boolean() });
    fc.assert(
      fc.property(fc.array(unit, { minLength: 1 }), (units) => {
        const seen: [string, boolean | null, boolean][] = [];
        const text = encodeUnits(units);
        eachUnit(text, (start, end, success, scored) => seen.push([text.slice(start, end), success === '1' ? true : success === '0' ? false : null, scored]));
        expect(seen).toEqual(units.map((u) => [u.id, u.success, u.scored]));
      }),
    );
    const none: unknown[] = [];
    eachUnit(encodeUnits([]), () => none.push(1));
    expect(none).toEqual([]);
  });
});
