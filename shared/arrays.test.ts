import { describe, expect, it } from 'vitest';
import { addSorted, append, FEW, largest, sortedIndex } from './arrays';

describe('lists of any length', () => {
  // 500,000 items: push(...items) and Math.max(...items) throw RangeError here.
  const many = Array.from({ length: 500_000 }, (_, i) => i);

  it('appends them all, in order', () => {
    // eslint-disable-next-line cellwatch/no-unbounded-spread -- the failure this module exists for
    expect(() => [].push(...(many as never[]))).toThrow(RangeError);
    const target = [-1];
    expect(append(target, many)).toBe(target);
    expect(target).toHaveLength(500_001);
    expect(target.at(-1)).toBe(499_999);
  });

  it('finds the largest, or the floor when there is none', () => {
    expect(largest(many)).toBe(499_999);
    expect(largest([], 0)).toBe(0);
    expect(largest([-5, -2], -10)).toBe(-2);
  });
});

describe('a sorted list that grows', () => {
  const byNumber = (a: { n: number }, b: { n: number }) => a.n - b.n;
  const items = (ns: number[]) => ns.map((n, i) => ({ n, i }));

  it('finds where an item goes: after its equals', () => {
    const sorted = items([1, 3, 3, 5]);
    expect([0, 1, 3, 4, 5, 9].map((n) => sortedIndex(sorted, { n, i: -1 }, byNumber))).toEqual([0, 1, 3, 3, 4, 4]);
  });

  it('takes a few items in place and many into a new list, in order either way, equals after those already there', () => {
    const sorted = items([10, 20, 30]);
    const { sorted: few } = addSorted(sorted, items([35, 5, 20]).map((x) => ({ ...x, i: 100 + x.i })), byNumber);
    expect(few).toBe(sorted);
    expect(few.map((x) => [x.n, x.i])).toEqual([[5, 101], [10, 0], [20, 1], [20, 102], [30, 2], [35, 100]]);
    const many = items(Array.from({ length: FEW * 3 }, (_, i) => (i * 7919) % 1000));
    const labels = few.map((x) => `n${x.n}`);
    const { sorted: merged, beside } = addSorted([...few], [...many], byNumber, { items: labels, of: (x) => `n${x.n}` });
    expect(merged).not.toBe(few);
    // The list beside it in step: each label at its item's place.
    expect(beside).toEqual(merged.map((x) => `n${x.n}`));
    expect(merged.map((x) => x.n)).toEqual([...few, ...many].map((x) => x.n).sort((a, b) => a - b));
    // Stable: of equal numbers, the ones that were there come first.
    expect(merged.filter((x) => x.n === 20).map((x) => x.i)).toEqual([1, 102]);
  });
});
