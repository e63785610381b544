import { describe, expect, it } from 'vitest';
import { holm, wilson95 } from './stats';

describe('Wilson 95 % interval', () => {
  // Values from R: binom::binom.wilson(x, n) (and prop.test(x, n, correct = FALSE)$conf.int).
  it.each([
    [5, 10, 0.2365931, 0.7634069],
    [0, 10, 0, 0.2775328],
    [10, 10, 0.7224672, 1],
    [1, 1, 0.2065493, 1],
  ])('%i of %i: [%f, %f]', (k, n, low, high) => {
    const [l, h] = wilson95(k, n) as [number, number];
    expect(l).toBeCloseTo(low, 6);
    expect(h).toBeCloseTo(high, 6);
  });

  it('is null with nothing scored', () => {
    expect(wilson95(0, 0)).toBeNull();
  });
});

describe("Holm's correction", () => {
  it('matches R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm")', () => {
    const adjusted = holm([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((want, i) => expect(adjusted[i]).toBeCloseTo(want, 12));
  });

  it('caps at 1 and keeps the order of the p-values: p.adjust(c(0.5, 0.2, 0.9), "holm") is 1, 0.6, 1', () => {
    expect(holm([0.5, 0.2, 0.9])).toEqual([1, 0.6000000000000001, 1]);
  });
});
