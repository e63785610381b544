import { describe, expect, it } from 'vitest';
import { successText } from './provenance';

describe('a success rate in words', () => {
  // A long run's header read 1500/3000 beside its Overview's 3,000 episodes.
  it('counts as every count is shown, its thousands grouped, the rate and its interval beside them', () => {
    expect(successText(17, 38)).toBe('17/38 · 44.7% · 95% CI 30.1–60.3%');
    expect(successText(1500, 3000)).toBe('1,500/3,000 · 50.0% · 95% CI 48.2–51.8%');
    expect(successText(0, 0)).toBe('nothing scored yet');
  });
});
