import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseJson, TooDeepError } from './json';
import { prng } from '../runners/demo/prng';

const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('JSON from a run', () => {
  it('is read up to the depth limit, brackets inside strings not counted', () => {
    expect(parseJson(nested(MAX_JSON_DEPTH))).toBeTypeOf('object');
    const text = JSON.stringify({ text: '['.repeat(10_000), list: [[1]] });
    expect(parseJson(text)).toEqual({ text: '['.repeat(10_000), list: [[1]] });
  });

  it('is refused past it, before anything is built: 10 MB of nesting is not held', () => {
    expect(() => parseJson(nested(MAX_JSON_DEPTH + 1))).toThrow(TooDeepError);
    expect(() => parseJson('['.repeat(5_000_000) + ']'.repeat(5_000_000))).toThrow(`nested deeper than ${MAX_JSON_DEPTH} levels; not read`);
  });

  it('refuses exactly the texts nested past the limit, whatever their brackets in strings and side by side (random texts)', () => {
    const next = prng(7);
    const random = (n: number) => Math.floor(next() * n);
    const leaf = () => [JSON.stringify('{['.repeat(random(300))), String(random(1000)), 'null'][random(3)] as string;
    // A value nested exactly `depth` deep: one child that deep less one, its siblings shallower, or a leaf.
    const value = (depth: number): string => {
      if (depth === 0) return leaf();
      const items = Array.from({ length: random(4) }, () => value(random(Math.min(depth, 3))));
      items.splice(random(items.length + 1), 0, value(depth - 1));
      return random(2) ? `[${items.join(',')}]` : `{${items.map((item, i) => `"k${i}":${item}`).join(',')}}`;
    };
    const seen = { refused: 0, read: 0 };
    for (let i = 0; i < 400; i++) {
      const depth = random(2) ? random(8) : MAX_JSON_DEPTH - 4 + random(8);
      const text = value(depth);
      if (depth > MAX_JSON_DEPTH) expect(() => parseJson(text)).toThrow(TooDeepError);
      else expect(parseJson(text)).toEqual(JSON.parse(text));
      seen[depth > MAX_JSON_DEPTH ? 'refused' : 'read']++;
    }
    expect(Math.min(seen.refused, seen.read)).toBeGreaterThan(50);
  });
});
