// Charts draw no more points than they have pixels for: a 4,000-episode cell's charts are built from a few
// hundred points, not thousands of SVG elements.

/** Which of `count` points `thin` keeps, in order: at most `max`, evenly spaced, the first and the last among them. */
export function thinnedAt(count: number, max: number): number[] {
  if (count <= max || max < 2) return Array.from({ length: count }, (_, i) => i);
  const step = (count - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => Math.round(i * step));
}

/** At most `max` of the points, evenly spaced, the first and the last always among them. */
export function thin<T>(points: readonly T[], max: number): T[] {
  return thinnedAt(points.length, max).map((i) => points[i] as T);
}

/** Bars in at most `max` buckets of neighbours, each as tall as its tallest (a spike stays seen), named by its range. */
export function bucketMax<T>(points: readonly T[], max: number, value: (p: T) => number, name: (p: T) => string): { name: string; value: number; count: number }[] {
  const size = Math.max(1, Math.ceil(points.length / max));
  const buckets: { name: string; value: number; count: number }[] = [];
  for (let i = 0; i < points.length; i += size) {
    const members = points.slice(i, i + size);
    const first = name(members[0] as T);
    const last = name(members[members.length - 1] as T);
    buckets.push({ name: members.length === 1 ? first : `${first}–${last}`, value: members.reduce((most, p) => Math.max(most, value(p)), 0), count: members.length });
  }
  return buckets;
}
