import { describe, expect, it } from 'vitest';
import { isListedAs, listedByPattern } from './launch';

describe('the cell a launch lists', () => {
  it('is its path, or a file of its folder matching the pattern the runner names it by, and nothing deeper or beside', () => {
    expect(isListedAs('local:/r/ui_a', 'local:/r/ui_a')).toBe(true);
    expect(isListedAs('local:/r/ui_a', 'local:/r/ui_ab')).toBe(false);
    const pattern = 'local:/r/ui_a/*.eval';
    expect(listedByPattern(pattern)).toBe(true);
    expect(isListedAs(pattern, 'local:/r/ui_a/2026-12-05T10-00-00+00-00_task_x.eval')).toBe(true);
    expect(isListedAs(pattern, 'local:/r/ui_a/.eval')).toBe(true);
    for (const other of ['local:/r/ui_a/x.json', 'local:/r/ui_a/sub/x.eval', 'local:/r/ui_b/x.eval', 'gpu1:/r/ui_a/x.eval', 'local:/r/ui_a/x.eval.tmp']) expect(isListedAs(pattern, other)).toBe(false);
    // A `*` or a regular expression's sign in a folder's name is that character, not a pattern.
    expect(listedByPattern('local:/r/a*b/rollouts.jsonl')).toBe(false);
    expect(isListedAs('local:/r/a*b/rollouts.jsonl', 'local:/r/axb/rollouts.jsonl')).toBe(false);
    expect(isListedAs('local:/r/(a)+/*.eval', 'local:/r/(a)+/x.eval')).toBe(true);
    expect(isListedAs('local:/r/ui_a/log.(1)*', 'local:/r/ui_a/log.(1)2')).toBe(true);
    expect(isListedAs('local:/r/ui_a/log.(1)*', 'local:/r/ui_a/logx(1)2')).toBe(false);
  });
});
