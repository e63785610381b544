import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideTime, holmLevel, UNPLANNED_REACH } from './decide';
import { mcnemarExactP } from './mcnemar';

/** The rule as README states it, searched the slow way: every k from 1, every count made again. */
function bruteForce(b: number, c: number, n: number, level: number, left: number | null): { further: number | null; futile: boolean } {
  const reach = left ?? UNPLANNED_REACH * n;
  let further: number | null = null;
  if (b !== c) {
    for (let k = 1; k <= reach; k++) {
      const discordant = Math.round(((b + c) / n) * (n + k));
      const leader = Math.round((Math.max(b, c) / (b + c)) * discordant);
      if (mcnemarExactP(leader, discordant - leader) <= level) {
        further = k;
        break;
      }
    }
  }
  let futile = false;
  if (left !== null) futile = mcnemarExactP(Math.max(b, c) + left, Math.min(b, c)) > level;
  return { further, futile };
}

describe('time to significance', () => {
  it('is what a brute-force search of the rule finds, for any counts, level and plan', () => {
    fc.assert(
      fc.property(fc.nat(60), fc.nat(60), fc.nat(120), fc.constantFrom(0.05, 0.025, 0.01, 0.001, 1e-4), fc.option(fc.nat(300), { nil: null }), (b, c, rest, level, left) => {
        const n = b + c + rest;
        if (n === 0) return;
        const counts = { both: Math.floor(rest / 2), neither: rest - Math.floor(rest / 2), only_a: b, only_b: c };
        const got = decideTime(counts, level, left);
        expect({ further: got.further, futile: got.futile }).toEqual(bruteForce(b, c, n, level, left));
        expect(got.searched).toBe(left ?? UNPLANNED_REACH * n);
      }),
      { numRuns: 400 },
    );
  });

  it('worked by hand: 8 to 2 discordant of 40 paired decides at 0.05 after 6 more', () => {
    // d = 10/40, q = 0.8. k = 5: D = round(11.25) = 11, L = round(8.8) = 9, p(9, 2) = 2 (1 + 11 + 55) / 2^11 = 0.065.
    // k = 6: D = round(11.5) = 12, L = round(9.6) = 10, p(10, 2) = 2 (1 + 12 + 66) / 2^12 = 0.0386.
    expect(mcnemarExactP(9, 2)).toBeCloseTo(134 / 2048, 12);
    expect(mcnemarExactP(10, 2)).toBeCloseTo(158 / 4096, 12);
    expect(decideTime({ both: 20, neither: 10, only_a: 8, only_b: 2 }, 0.05, null)).toEqual({ further: 6, searched: 400, futile: false, level: 0.05 });
    // With 5 units left in the plan it is not reached at this rate, though all 5 going A's way would decide it (13 to 2).
    expect(decideTime({ both: 20, neither: 10, only_a: 8, only_b: 2 }, 0.05, 5)).toEqual({ further: null, searched: 5, futile: false, level: 0.05 });
  });

  it('says never for an even split or no discordance, and futile when even every unit left cannot decide', () => {
    expect(decideTime({ both: 10, neither: 10, only_a: 5, only_b: 5 }, 0.05, 50)).toMatchObject({ further: null, futile: false });
    expect(decideTime({ both: 30, neither: 10, only_a: 0, only_b: 0 }, 0.05, null).further).toBeNull();
    // 3 to 1 with 2 units left: at best 5 to 1, p = 0.22.
    expect(decideTime({ both: 40, neither: 50, only_a: 3, only_b: 1 }, 0.05, 2)).toMatchObject({ futile: true, further: null });
    expect(decideTime({ both: 40, neither: 50, only_a: 3, only_b: 1 }, 0.05, 200).futile).toBe(false);
  });

  it("takes Holm's level at the comparison's rank", () => {
    expect(holmLevel(0.05, 10, 0)).toBeCloseTo(0.005);
    expect(holmLevel(0.05, 10, 9)).toBeCloseTo(0.05);
  });
});
