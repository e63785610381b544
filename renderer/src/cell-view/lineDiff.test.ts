import { describe, expect, it } from 'vitest';
import { lineDiff } from './lineDiff';

describe('line diff of two policy versions', () => {
  it('keeps common lines and marks what was removed and added, in order', () => {
    const before = 'def act(obs):\n    x = obs[0]\n    return 1 if x > 0 else 0\n';
    const after = 'def act(obs):\n    x = obs[0]\n    v = obs[1]\n    return 1 if x + 0.5 * v > 0 else 0\n';
    expect(lineDiff(before, after).map((l) => `${{ same: ' ', added: '+', removed: '-' }[l.kind]}${l.text}`)).toEqual([
      ' def act(obs):',
      '     x = obs[0]',
      '-    return 1 if x > 0 else 0',
      '+    v = obs[1]',
      '+    return 1 if x + 0.5 * v > 0 else 0',
      ' ',
    ]);
  });

  it('two equal texts differ nowhere', () => {
    expect(lineDiff('a\nb', 'a\nb').every((l) => l.kind === 'same')).toBe(true);
  });
});
