import { describe, expect, it } from 'vitest';
import { truthOf } from './run-states';

describe("a cell's state with its launched run's process", () => {
  it('a live process keeps a quiet cell running; an ended one turns files that look live into stopped or crashed', () => {
    expect(truthOf('stale', 'running')).toBe('running');
    expect(truthOf('running', 'stopped')).toBe('stopped');
    expect(truthOf('draining', 'exited')).toBe('stopped');
    expect(truthOf('running', 'ended')).toBe('stopped');
    expect(truthOf('stale', 'crashed')).toBe('crashed');
  });

  it('a finished cell, or one no run of this app made, says what its files say', () => {
    expect(truthOf('finished', 'crashed')).toBe('finished');
    expect(truthOf('scored', 'stopped')).toBe('scored');
    expect(truthOf('running', undefined)).toBe('running');
  });
});
