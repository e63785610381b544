/** When a budget runs out at the pace it has gone so far; null when that cannot be said. */
export function projectedEnd(used: number, total: number | null, startedAt: number | null, now: number): number | null {
  if (!total || !startedAt || used <= 0 || used >= total || now <= startedAt) return null;
  const rate = used / (now - startedAt);
  return now + (total - used) / rate;
}

/**
 * A span as a person reads it: to a tenth of a second under 10 s (a sample of 1.5 s is not "2 s"), then whole
 * seconds, minutes and seconds, hours and minutes; rounded before it is split (119.6 s is 2 min 0 s, not 1 min 60 s).
 */
export function duration(seconds: number): string {
  if (seconds < 9.95) return `${Number(seconds.toFixed(1))} s`;
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole} s`;
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${whole % 60} s`;
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
