// The first divergence of two agents on one unit: their actions (tool calls) aligned step by step, and the
// first step where they differ: another tool, the same tool with other arguments, or one side's actions ended.
import type { TranscriptItem } from './cell-detail';
import { canonicalArguments } from './call-arguments';

export interface Divergence {
  /** The step (0-based, among each side's actions) where they first differ; null where they never do. */
  step: number | null;
  why: 'tool' | 'arguments' | 'a ended' | 'b ended' | null;
  /** Each side's item of that step (its place in the side's items); null where that side's actions had ended. */
  a: number | null;
  b: number | null;
  /** How many actions each side had. */
  actions: { a: number; b: number };
}

/** The places of a side's actions: its tool calls, in order. */
const actionsOf = (items: readonly TranscriptItem[]) => items.flatMap((item, i) => (item.kind === 'call' ? [i] : []));

export function firstDivergence(a: readonly TranscriptItem[], b: readonly TranscriptItem[]): Divergence {
  const ofA = actionsOf(a);
  const ofB = actionsOf(b);
  const actions = { a: ofA.length, b: ofB.length };
  for (let step = 0; step < Math.max(ofA.length, ofB.length); step++) {
    const x = a[ofA[step] ?? -1];
    const y = b[ofB[step] ?? -1];
    const at = { a: ofA[step] ?? null, b: ofB[step] ?? null, actions };
    if (x?.kind !== 'call') return { step, why: 'a ended', ...at };
    if (y?.kind !== 'call') return { step, why: 'b ended', ...at };
    if (x.name !== y.name) return { step, why: 'tool', ...at };
    if (canonicalArguments(x.arguments) !== canonicalArguments(y.arguments)) return { step, why: 'arguments', ...at };
  }
  return { step: null, why: null, a: null, b: null, actions };
}
