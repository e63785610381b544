import { describe, expect, it } from 'vitest';
import { append, largest } from './arrays';

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
