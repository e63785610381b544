// The cost frontier of a board: success rate against est. cost per unit, and the cells no other beats on both.

export interface FrontierPoint {
  path: string;
  /** Successes of scored units. */
  rate: number;
  /** Est. USD per ended unit. */
  cost: number;
}

/**
 * The Pareto-best points: those no other point matches or beats on both rate (higher is better) and cost
 * (lower is better) while beating it on one. Two points alike in both are both best. Sorted by cost (then
 * rate, best first), a point is best when its rate beats every cheaper point's and is its own cost's highest.
 */
export function paretoBest(points: readonly FrontierPoint[]): Set<string> {
  const sorted = [...points].sort((x, y) => x.cost - y.cost || y.rate - x.rate);
  const best = new Set<string>();
  let cheaperBest = -Infinity;
  for (let i = 0; i < sorted.length; ) {
    const cost = (sorted[i] as FrontierPoint).cost;
    const top = (sorted[i] as FrontierPoint).rate;
    let j = i;
    for (; j < sorted.length && (sorted[j] as FrontierPoint).cost === cost; j++) {
      const point = sorted[j] as FrontierPoint;
      if (point.rate === top && top > cheaperBest) best.add(point.path);
    }
    cheaperBest = Math.max(cheaperBest, top);
    i = j;
  }
  return best;
}

/** A cell on the frontier's chart: its rate of scored units and its est. cost per ended unit; null where either is unknown. */
export function frontierPoint(cell: { path: string; success_rate: number | null; cost_usd_estimate: number | null; episodes: { ended: number } }): FrontierPoint | null {
  if (cell.success_rate === null || cell.cost_usd_estimate === null || cell.episodes.ended === 0) return null;
  return { path: cell.path, rate: cell.success_rate, cost: cell.cost_usd_estimate / cell.episodes.ended };
}

/** Each on-board cell's place on its board's frontier: true on it, false off it, null where its rate or cost is unknown. */
export function paretoByPath<C extends Parameters<typeof frontierPoint>[0] & { board: string | null; boardName: string | null }>(cells: readonly C[]): Map<string, boolean | null> {
  const byBoard = new Map<string, FrontierPoint[]>();
  const places = new Map<string, boolean | null>();
  for (const cell of cells) {
    if (cell.board !== 'on' || cell.boardName === null) continue;
    const point = frontierPoint(cell);
    places.set(cell.path, point ? false : null);
    if (!point) continue;
    const board = byBoard.get(cell.boardName);
    if (board) board.push(point);
    else byBoard.set(cell.boardName, [point]);
  }
  for (const points of byBoard.values()) for (const path of paretoBest(points)) places.set(path, true);
  return places;
}
