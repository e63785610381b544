// Time to significance: how many more paired units a board comparison needs before its exact McNemar test
// decides at its Holm level, if the discordance it shows so far holds; and whether the units its plan has
// left could decide it at all. The rule, in README ("Time to significance"):
//   n paired units so far, b and c discordant (A only, B only), d = (b + c) / n, q = max(b, c) / (b + c);
//   after k more: D = round(d (n + k)) discordant, L = round(q D) of them the leader's, p_k = exact p(L, D - L);
//   it decides at the first k >= 1 with p_k <= level, searched up to the units the plan has left (10 n where
//   no plan is known); futile where the plan's units left, every one the leader's, leave p(max + left, min) > level.
import { mcnemarExactP } from './mcnemar';

export interface DecideTime {
  /** Further paired units until the test would decide; null: not within `searched` at this rate (or never: an even split, no discordance). */
  further: number | null;
  /** How far it was searched: the plan's units left, else 10 times the units paired so far. */
  searched: number;
  /** The units the plan has left cannot decide it, whichever way they go; false where no plan is known. */
  futile: boolean;
  /** The p-value it must reach: the board's level at its current Holm rank. */
  level: number;
}

export interface PairedCounts {
  both: number;
  only_a: number;
  only_b: number;
  neither: number;
}

/** Searched this many times the units paired so far where no plan says how many are left. */
export const UNPLANNED_REACH = 10;

/**
 * When the comparison would decide at `level` (see above), `left` the paired units its plan has left (null:
 * not known). Walks the discordant count D, not k: each D the first k that reaches it, so at most one exact
 * test a discordant unit.
 */
export function decideTime(counts: PairedCounts, level: number, left: number | null): DecideTime {
  const b = counts.only_a;
  const c = counts.only_b;
  const n = counts.both + b + c + counts.neither;
  const searched = left ?? UNPLANNED_REACH * n;
  const futile = left !== null && mcnemarExactP(Math.max(b, c) + left, Math.min(b, c)) > level;
  const decided = (k: number | null): DecideTime => ({ further: k, searched, futile, level });
  if (n === 0 || b + c === 0 || b === c) return decided(null);
  const d = (b + c) / n;
  const q = Math.max(b, c) / (b + c);
  const discordantAt = (k: number) => Math.round(d * (n + k));
  const last = discordantAt(searched);
  for (let target = Math.max(discordantAt(1), 1); target <= last; target++) {
    const leader = Math.round(q * target);
    if (mcnemarExactP(leader, target - leader) > level) continue;
    // The first k whose rounding reaches this D: round(d (n + k)) >= D from k >= (D - 0.5) / d - n on.
    let k = Math.max(1, Math.ceil((target - 0.5) / d - n));
    while (k > 1 && discordantAt(k - 1) >= target) k--;
    while (discordantAt(k) < target) k++;
    return decided(k <= searched ? k : null);
  }
  return decided(null);
}

/** The level a board's comparison must reach at its Holm rank: 0.05 / (m - r), r the comparisons of smaller p. */
export function holmLevel(alpha: number, comparisons: number, smaller: number): number {
  return alpha / Math.max(1, comparisons - smaller);
}
