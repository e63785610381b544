import { describe, expect, it } from 'vitest';
import { namedSome, oneOutcome } from './integrity';

describe('namedSome', () => {
  it('counts its items and names the first three', () => {
    expect(namedSome(['4'], 'episode')).toBe('1 episode (4)');
    expect(namedSome(['4', '9', '12'], 'episode')).toBe('3 episodes (4, 9, 12)');
    expect(namedSome(['4', '9', '12', '20', '31'], 'entry', { plural: 'entries' })).toBe('5 entries (4, 9, 12 and 2 more)');
  });

  it('counts all there were where only the first few were kept', () => {
    expect(namedSome(['a at line 2', 'b at line 9'], 'rollout', { total: 1204 })).toBe('1,204 rollouts (a at line 2, b at line 9 and 1,202 more)');
  });
});

describe('oneOutcome', () => {
  const unitOf = (entry: unknown) => ({ id: String((entry as { seed: string }).seed), status: 'scored', success: (entry as { success: boolean }).success, scored: true });
  const placeOf = (i: number) => `seeds[${i}]`;

  it('names a repeated unit at each place it is given, up to three', () => {
    const { units, problems } = oneOutcome([{ seed: 1, success: true }, { seed: 2, success: true }, { seed: 1, success: true }], unitOf, placeOf, 'summary.json', 'seed');
    expect(units.map((u) => u.id)).toEqual(['1', '2']);
    expect(problems.map((p) => p.message)).toEqual(['1 seed given more than once: seed 1 at seeds[0] and seeds[2]']);
  });

  it('names a unit given 100,000 times by its first places and counts the rest, and a key of a megabyte by its ends', () => {
    const key = `s${'9'.repeat(1 << 20)}`;
    const list = [...Array.from({ length: 100_000 }, () => ({ seed: 7, success: true })), { seed: key, success: true }, { seed: key, success: false }];
    const { units, problems } = oneOutcome(list, unitOf, placeOf, 'summary.json', 'seed');
    expect(units.map((u) => [u.id.length, u.status])).toEqual([[1, 'scored'], [key.length, 'repeated']]);
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^2 seeds given more than once: seed 7 at seeds\[0\], seeds\[1\], seeds\[2\] and 99,997 more places; seed s9+… 1,048,\d{3} characters not shown …9+ at seeds\[100000\] and seeds\[100001\] \(success, then failure\); 1 seed with two outcomes left unscored$/),
    ]);
  });
});
