import { describe, expect, it } from 'vitest';
import { namedSome } from './integrity';

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
