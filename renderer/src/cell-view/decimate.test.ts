import { describe, expect, it } from 'vitest';
import { bucketMax, thin } from './decimate';

describe('thinning a line to the pixels it has', () => {
  it('keeps the first and the last, evenly spaced between', () => {
    const points = Array.from({ length: 4000 }, (_, i) => i);
    const kept = thin(points, 300);
    expect(kept).toHaveLength(300);
    expect(kept[0]).toBe(0);
    expect(kept.at(-1)).toBe(3999);
    expect(thin([1, 2, 3], 300)).toEqual([1, 2, 3]);
  });
});

describe('bars in buckets', () => {
  it('keep every spike: a bucket is as tall as its tallest', () => {
    const calls = Array.from({ length: 4000 }, (_, i) => ({ id: String(i), calls: i === 1234 ? 99 : 3 }));
    const bars = bucketMax(calls, 200, (c) => c.calls, (c) => c.id);
    expect(bars).toHaveLength(200);
    expect(bars.filter((b) => b.value === 99)).toEqual([{ name: '1220–1239', value: 99, count: 20 }]);
    expect(bucketMax(calls.slice(0, 3), 200, (c) => c.calls, (c) => c.id).map((b) => b.name)).toEqual(['0', '1', '2']);
  });
});
