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

/** The first index of `sorted` (from `from` on) whose item comes after `item`: where it goes, after its equals. */
export function sortedIndex<T>(sorted: readonly T[], item: T, compare: (a: T, b: T) => number, from = 0): number {
  let [low, high] = [from, sorted.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compare(sorted[middle] as T, item) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Fewer items than this are put into a sorted list one by one; more are merged in one pass. */
export const FEW = 64;

/** A list kept in step with a sorted one: its item for each item of the sorted list, at the same place. */
export interface Beside<T, U> {
  items: U[];
  of: (item: T) => U;
}

/**
 * `sorted` with `more` added in order (`more` sorted here; ties keep `sorted`'s first), so an append costs
 * sorting what was appended and finding where each goes, not sorting everything again: a few are put into
 * `sorted` itself, more merged into a new array. `beside`, when given, gets each added item's own at the
 * same place. Returns the lists to use from now on.
 */
export function addSorted<T, U = never>(sorted: T[], more: T[], compare: (a: T, b: T) => number, beside?: Beside<T, U>): { sorted: T[]; beside: U[] } {
  more.sort(compare);
  if (more.length < FEW) {
    for (const item of more) {
      const at = sortedIndex(sorted, item, compare);
      sorted.splice(at, 0, item);
      beside?.items.splice(at, 0, beside.of(item));
    }
    return { sorted, beside: beside?.items ?? [] };
  }
  const merged: T[] = new Array(sorted.length + more.length);
  const next: U[] = beside ? new Array(merged.length) : [];
  let from = 0;
  let k = 0;
  const copyTo = (to: number) => {
    for (let i = from; i < to; i++) merged[k + i - from] = sorted[i] as T;
    if (beside) for (let i = from; i < to; i++) next[k + i - from] = beside.items[i] as U;
    k += to - from;
    from = to;
  };
  for (const item of more) {
    copyTo(sortedIndex(sorted, item, compare, from));
    merged[k] = item;
    if (beside) next[k] = beside.of(item);
    k++;
  }
  copyTo(sorted.length);
  return { sorted: merged, beside: next };
}

/** `array`, or a copy of it twice as long where `needed` values do not fit. */
export function withRoom(array: Int32Array<ArrayBuffer>, needed: number): Int32Array<ArrayBuffer> {
  if (needed <= array.length) return array;
  const grown = new Int32Array(Math.max(needed, array.length * 2));
  grown.set(array);
  return grown;
}
