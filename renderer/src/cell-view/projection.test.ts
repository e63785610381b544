import { describe, expect, it } from 'vitest';
import { duration } from './projection';

describe('duration', () => {
  it('says a short span to a tenth of a second, as a unit records it', () => {
    expect(duration(1.5)).toBe('1.5 s');
    expect(duration(2)).toBe('2 s');
    expect(duration(0.04)).toBe('0 s');
    expect(duration(9.96)).toBe('10 s');
  });

  it('rounds before it splits: never 60 seconds or 60 minutes', () => {
    expect(duration(59.6)).toBe('1 min 0 s');
    expect(duration(119.6)).toBe('2 min 0 s');
    expect(duration(125)).toBe('2 min 5 s');
    expect(duration(7199)).toBe('2 h 0 min');
    expect(duration(3 * 3600 + 20 * 60)).toBe('3 h 20 min');
  });
});
