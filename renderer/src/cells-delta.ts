import type { CellsDelta, CellSummary } from '../../shared/model';

/** A list of cells with a delta applied: rows added or changed in place (by id), removed ones gone, new ones at the end. */
export function applyCellsDelta(cells: CellSummary[], delta: CellsDelta): CellSummary[] {
  const removed = new Set(delta.removed);
  const updated = new Map([...delta.added, ...delta.changed].map((c) => [c.id, c]));
  const next = cells.filter((c) => !removed.has(c.id)).map((c) => {
    const row = updated.get(c.id);
    updated.delete(c.id);
    return row ?? c;
  });
  return updated.size ? [...next, ...updated.values()] : next;
}
