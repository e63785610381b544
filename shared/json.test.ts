import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseJson, TooDeepError } from './json';

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
});
