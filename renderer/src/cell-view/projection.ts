/** When a budget runs out at the pace it has gone so far; null when that cannot be said. */
export function projectedEnd(used: number, total: number | null, startedAt: number | null, now: number): number | null {
  if (!total || !startedAt || used <= 0 || used >= total || now <= startedAt) return null;
  const rate = used / (now - startedAt);
  return now + (total - used) / rate;
}

export function duration(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
}
