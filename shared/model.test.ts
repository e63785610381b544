import { describe, expect, it } from 'vitest';
import { clockMinutes, dayClockMinutes } from './model';

describe('dayClockMinutes', () => {
  const now = new Date(2026, 11, 6, 22, 40).getTime();

  it('says a time later today as the clock does', () => {
    const later = new Date(2026, 11, 6, 23, 55).getTime();
    expect(dayClockMinutes(later, now)).toBe(clockMinutes(later));
  });

  it('says the day of a time that is not today, with its time (a budget that runs out in a month)', () => {
    const tomorrow = new Date(2026, 11, 7, 0, 5).getTime();
    const inAMonth = new Date(2027, 0, 7, 5, 55).getTime();
    for (const at of [tomorrow, inAMonth]) {
      const text = dayClockMinutes(at, now);
      expect(text).toContain(clockMinutes(at).replace(/\s/g, ' ').split(' ')[0] as string);
      expect(text).toContain(String(new Date(at).getDate()));
      expect(text).not.toBe(clockMinutes(at));
    }
    expect(dayClockMinutes(inAMonth, now)).toContain(new Intl.DateTimeFormat(undefined, { month: 'short' }).format(inAMonth));
  });
});
