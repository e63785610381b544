import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chartText, niceTicks } from './chart-style';

describe('niceTicks', () => {
  it('steps from 0 past the largest value by 1, 2, 2.5 or 5 times a power of ten', () => {
    expect(niceTicks(0.00034)).toEqual([0, 0.0001, 0.0002, 0.0003, 0.0004]);
    expect(niceTicks(1)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(niceTicks(3.7)).toEqual([0, 1, 2, 3, 4]);
    expect(niceTicks(260)).toEqual([0, 100, 200, 300]);
    expect(niceTicks(12_345)).toEqual([0, 5000, 10_000, 15_000]);
  });

  it('steps by whole numbers on an axis of counts', () => {
    expect(niceTicks(3, { whole: true })).toEqual([0, 1, 2, 3]);
    expect(niceTicks(9, { whole: true })).toEqual([0, 5, 10]);
    expect(niceTicks(260, { whole: true })).toEqual([0, 100, 200, 300]);
    expect(niceTicks(90, { whole: true })).toEqual([0, 25, 50, 75, 100]);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), (max) => {
        const ticks = niceTicks(max, { whole: true });
        expect(ticks.every(Number.isInteger)).toBe(true);
        expect(ticks.at(-1)).toBeGreaterThanOrEqual(max);
        expect(ticks.length - 1).toBeLessThanOrEqual(5);
      }),
      { numRuns: 2000 },
    );
  });

  it('draws an axis for nothing at all', () => {
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(Number.NaN)).toEqual([0, 1]);
  });

  it('ends at or past any largest value, in two to five steps', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-9, max: 1e9, noNaN: true }), (max) => {
        const ticks = niceTicks(max);
        expect(ticks.at(-1)).toBeGreaterThanOrEqual(max);
        expect(ticks.length - 1).toBeGreaterThanOrEqual(2);
        expect(ticks.length - 1).toBeLessThanOrEqual(5);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('chartText', () => {
  it("writes a rollout's id whole, and a name of hundreds of characters by its start and end, never half a character", () => {
    expect(chartText('claude_code_agent/1234#12')).toBe('claude_code_agent/1234#12');
    expect(chartText(`${'a'.repeat(200)} #7f4a28519357`)).toBe(`${'a'.repeat(16)}…a #7f4a28519357`);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (text) => {
        const chars = Array.from(text);
        expect(chartText(text)).toBe(chars.length <= 32 ? text : `${chars.slice(0, 16).join('')}…${chars.slice(-15).join('')}`);
      }),
    );
  });
});
