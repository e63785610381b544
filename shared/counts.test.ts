import { describe, expect, it } from 'vitest';
import { counted, dollars, fineDollars, whole } from './counts';

describe('counts', () => {
  it('groups thousands and names one or many', () => {
    expect(whole(1234567)).toBe('1,234,567');
    expect(counted(1, 'cell')).toBe('1 cell');
    expect(counted(0, 'cell')).toBe('0 cells');
    expect(counted(12345, 'episode')).toBe('12,345 episodes');
    expect(counted(2, 'run is', 'runs are')).toBe('2 runs are');
  });

  it('says an amount in cents, and one under half a cent to its first digits, never as nothing', () => {
    expect(dollars(1234.567)).toBe('$1,234.57');
    expect(dollars(0.43)).toBe('$0.43');
    expect(dollars(0.005)).toBe('$0.01');
    expect(dollars(0.00083)).toBe('$0.00083');
    expect(dollars(0.000001234)).toBe('$0.0000012');
    expect(dollars(0)).toBe('$0.00');
  });

  it('keeps amounts set side by side apart: an axis of nice steps, units that differ past the cent', () => {
    const ticks = (step: number) => [0, 1, 2, 3, 4].map((k) => fineDollars(k * step));
    expect(ticks(0.0005)).toEqual(['$0', '$0.0005', '$0.001', '$0.0015', '$0.002']);
    expect(ticks(0.0025)).toEqual(['$0', '$0.0025', '$0.005', '$0.0075', '$0.01']);
    expect(ticks(0.25)).toEqual(['$0', '$0.25', '$0.50', '$0.75', '$1.00']);
    expect(ticks(2.5)).toEqual(['$0', '$2.50', '$5.00', '$7.50', '$10.00']);
    expect([0.0123, 0.0149].map(fineDollars)).toEqual(['$0.0123', '$0.0149']);
    // Steps that are no nice numbers in floating point still read as the step they are.
    expect(fineDollars(3 * 0.0001)).toBe('$0.0003');
  });
});
