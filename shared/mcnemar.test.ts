import { describe, expect, it } from 'vitest';
import type { EpisodeUnit } from './model';
import { listedForView, mcnemarExactP, pairUnits, verdict } from './mcnemar';

// Exact references: sum C(n, i) for i <= min(b, c) in Python integers, times 2 / 2^n as a Fraction, then float().
const REFERENCE: [number, number, number][] = [
  [2, 8, 0.109375],
  [15, 5, 0.04138946533203125],
  [0, 1, 1],
  [0, 7, 0.015625],
  [3, 3, 1],
  [450, 550, 0.0017305360849763176],
  [4950, 5050, 0.322174199795312],
  [49000, 51000, 2.588716038346898e-10],
  [49800, 50200, 0.20703897176422484],
  [49990, 50010, 0.9520893498136247],
];

/** The p-value as a sum of binomial terms in exact integers, divided once: the slow reference. */
function exactSum(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  let term = 1n;
  let tail = 0n;
  for (let i = 0n; i <= BigInt(Math.min(b, c)); i++) {
    tail += term;
    term = (term * (BigInt(n) - i)) / (i + 1n);
  }
  const shift = Math.max(0, tail.toString(2).length - 62);
  const exponent = shift - (n - 1);
  const p = exponent < -1074 - 62 ? 0 : Number(tail >> BigInt(shift)) * 2 ** Math.max(exponent, -1022) * 2 ** Math.min(0, exponent + 1022);
  return Math.min(1, p);
}

function unit(id: string, success: boolean | null, status = 'evaluated', scored = success !== null): EpisodeUnit {
  return { id, status, success, scored };
}

describe('exact McNemar p-value', () => {
  it('matches binomial sums done by hand for small n', () => {
    // b=2, c=8: 2 * (C(10,0) + C(10,1) + C(10,2)) / 2^10 = 2 * 56 / 1024
    expect(mcnemarExactP(2, 8)).toBe((2 * (1 + 10 + 45)) / 1024);
    // b=1, c=3: 2 * (1 + 4) / 16
    expect(mcnemarExactP(1, 3)).toBe(10 / 16);
  });

  it.each(REFERENCE)('b=%i c=%i gives %f to 1e-12 relative', (b, c, p) => {
    expect(Math.abs(mcnemarExactP(b, c) - p) / p).toBeLessThan(1e-12);
  });

  it('equals the exact sum in integers to 1e-9 relative on 400 seeded pairs up to n = 6,000, tails far below 1e-300 included', () => {
    let seed = 42;
    const next = (below: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % below);
    for (let t = 0; t < 400; t++) {
      const n = 1 + next(t < 200 ? 200 : 6000);
      const b = next(n + 1);
      const exact = exactSum(b, n - b);
      const p = mcnemarExactP(b, n - b);
      if (exact < 1e-300) expect(p).toBeLessThan(1e-300);
      else expect(Math.abs(p - exact) / exact, `b=${b} c=${n - b}`).toBeLessThan(1e-9);
    }
  });

  it('is symmetric in b and c', () => {
    for (const [b, c] of [[2, 8], [15, 5], [450, 550], [0, 9]] as const) expect(mcnemarExactP(b, c)).toBe(mcnemarExactP(c, b));
  });

  it('is 1 when nothing is discordant', () => {
    expect(mcnemarExactP(0, 0)).toBe(1);
  });

  it('stays finite and ordered at n = 100,000', () => {
    const ps = [45000, 49000, 49500, 50000].map((k) => mcnemarExactP(k, 100000 - k));
    expect(ps.every((p) => p >= 0 && p <= 1)).toBe(true);
    expect([...ps].sort((x, y) => x - y)).toEqual(ps);
    expect(ps[3]).toBe(1);
    expect(mcnemarExactP(1, 99999)).toBe(0);
  });

  it('refuses counts that are not whole numbers', () => {
    expect(() => mcnemarExactP(1.5, 2)).toThrow(RangeError);
  });
});

describe('pairing units', () => {
  const a = [unit('0', true), unit('1', true), unit('2', false), unit('3', false), unit('4', null, 'rate_limited'), unit('5', true)];
  const b = [unit('0', true), unit('1', false), unit('2', true), unit('3', true), unit('4', true), unit('5', null, 'infra_error')];

  it('builds the 2x2 table, lists exclusions from either side, and the discordant episodes', () => {
    const result = pairUnits(a, b);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.table).toMatchObject({ pairs: 4, both: 1, only_a: 1, only_b: 2, neither: 0, statistic: 1, p_value: 1 });
    expect(result.table.excluded).toEqual([
      { id: '4', a: 'rate_limited', b: null },
      { id: '5', a: null, b: 'infra_error' },
    ]);
    expect(result.table.discordant).toEqual([
      { id: '1', winner: 'a' },
      { id: '2', winner: 'b' },
      { id: '3', winner: 'b' },
    ]);
    expect(result.table.success_rate_a).toBe(0.5);
    expect(result.table.success_rate_b).toBe(0.75);
  });

  it('is symmetric: swapping A and B swaps only_a and only_b and keeps p', () => {
    const ab = pairUnits(a, b);
    const ba = pairUnits(b, a);
    if (!ab.ok || !ba.ok) throw new Error('expected pairs');
    expect([ba.table.only_a, ba.table.only_b, ba.table.p_value]).toEqual([ab.table.only_b, ab.table.only_a, ab.table.p_value]);
  });

  it('refuses finished runs whose ids diverge, listing each side', () => {
    expect(pairUnits([unit('1', true), unit('2', true), unit('10', true)], [unit('2', true), unit('3', false)])).toEqual({
      ok: false,
      only_a: ['1', '10'],
      only_b: ['3'],
    });
  });

  it('counts ids on one side only as undecided while a run is live', () => {
    const result = pairUnits([unit('1', true), unit('2', true)], [unit('1', false)], true);
    if (!result.ok) throw new Error('expected pairs');
    expect(result.table.undecided).toEqual(['2']);
    expect(result.table.pairs).toBe(1);
  });

  it('says the result in one plain sentence', () => {
    const result = pairUnits(
      Array.from({ length: 20 }, (_, i) => unit(String(i), i < 3)),
      Array.from({ length: 20 }, (_, i) => unit(String(i), i >= 3 && i < 15)),
    );
    if (!result.ok) throw new Error('expected pairs');
    expect(verdict(result.table, 'A', 'B', 'episode')).toBe('B wins 12 episodes that A fails and loses 3; p = 0.035: a real difference at the 5% level.');
  });
});

describe('a paired test as the window gets it', () => {
  const side = (id: string) => ({ id, name: id, format: 'bigym-agent', unit: 'seed', live: false });
  it('carries the first of each long list and its whole length; its counts and p stay those of every unit', () => {
    const n = 2500;
    const a = Array.from({ length: n }, (_, i) => unit(String(i), i % 2 === 0));
    const b = Array.from({ length: n }, (_, i) => unit(String(i), i % 2 === 1));
    const pairing = pairUnits(a, b);
    if (!pairing.ok) throw new Error('paired');
    const shown = listedForView({ ok: true, a: side('a'), b: side('b'), table: pairing.table }, 1000);
    if (!shown.ok) throw new Error('paired');
    expect(shown.table.discordant).toEqual(pairing.table.discordant.slice(0, 1000));
    expect(shown.lengths).toEqual({ discordant: n, excluded: 0, undecided: 0 });
    expect({ ...shown.table, discordant: [] }).toEqual({ ...pairing.table, discordant: [] });
  });

  it('cuts the ids a refusal lists on each side', () => {
    const refused = listedForView({ ok: false, a: side('a'), b: side('b'), only_a: ['1', '2', '3'], only_b: [] }, 2);
    expect(refused).toMatchObject({ only_a: ['1', '2'], only_b: [], lengths: { only_a: 3, only_b: 0 } });
  });
});
