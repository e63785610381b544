/**
 * Appends `items` to `target` one by one. `target.push(...items)` passes each item as an argument, and
 * past about 120,000 of them (a log of tiny lines read at once) the call overflows the stack.
 */
export function append<T>(target: T[], items: readonly T[]): T[] {
  for (const item of items) target.push(item);
  return target;
}

/** The largest of `values`, or `floor` when none is larger: `Math.max(...values)` without the stack's limit. */
export function largest(values: Iterable<number>, floor = -Infinity): number {
  let most = floor;
  for (const value of values) if (value > most) most = value;
  return most;
}
