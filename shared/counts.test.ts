import { describe, expect, it } from 'vitest';
import { counted, whole } from './counts';

describe('counts', () => {
  it('groups thousands and names one or many', () => {
    expect(whole(1234567)).toBe('1,234,567');
    expect(counted(1, 'cell')).toBe('1 cell');
    expect(counted(0, 'cell')).toBe('0 cells');
    expect(counted(12345, 'episode')).toBe('12,345 episodes');
    expect(counted(2, 'run is', 'runs are')).toBe('2 runs are');
  });
});
