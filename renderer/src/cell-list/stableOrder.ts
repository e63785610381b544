import { append } from '../../../shared/arrays';

/**
 * The ids in the order they were shown, so a live list does not reorder under its reader: ids gone are
 * dropped, and a new id goes in after the one before it in `sorted` (first, when none is).
 */
export function keepOrder(previous: readonly string[], sorted: readonly string[]): string[] {
  const present = new Set(sorted);
  const kept = previous.filter((id) => present.has(id));
  const known = new Set(kept);
  const after = new Map<string | null, string[]>();
  let anchor: string | null = null;
  for (const id of sorted) {
    if (known.has(id)) {
      anchor = id;
      continue;
    }
    const group = after.get(anchor);
    if (group) group.push(id);
    else after.set(anchor, [id]);
  }
  const order = [...(after.get(null) ?? [])];
  for (const id of kept) {
    order.push(id);
    append(order, after.get(id) ?? []);
  }
  return order;
}

export const sameOrder = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id, i) => id === b[i]);
