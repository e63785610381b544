// The collector's own aggregate, written at the end, checked against what the rows give: a mismatch is
// a problem, as for the coding-agent runner's summary.
import { problem, type Problem } from '../../shared/model';
import { isObject } from '../common/json';
import { arr, num, obj } from '../common/values';
import { whole } from '../../shared/counts';
import { nonNegative } from '../common/integrity';
import type { Collection } from './collection';
import type { RowList } from './row-list';
import { agentName } from './agent-name';

/** The metrics the rows (those of `of`, by their place) can give again, and how. */
const CHECKED: Record<string, (rows: RowList, of: number[]) => number | null> = {
  'mean/reward': (rows, of) => mean(of.map((k) => rows.reward(k)).map((r) => (typeof r === 'number' ? r : null))),
  // A negative count is left out, as from every sum (its problem names it).
  'mean/input_tokens': (rows, of) => mean(of.map((k) => nonNegative(rows.tokenCount(k, 0)))),
  'mean/output_tokens': (rows, of) => mean(of.map((k) => nonNegative(rows.tokenCount(k, 2)))),
};

function mean(values: (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null);
  return present.length ? present.reduce((a, b) => a + b, 0) / present.length : null;
}

export interface AggregateLine {
  agent: string | null;
  metric: string;
  /** What the aggregate file says. */
  said: number;
  /** What the rows give; null when they give nothing to compare. */
  rows: number | null;
}

/** Relative tolerance: the collector rounds nothing, but floats summed in another order differ in the last bits. */
const TOLERANCE = 1e-9;

/**
 * The aggregate's per-agent metrics beside the rows' own: `_aggregate_metrics.json` holds a list of
 * {agent_ref, agent_metrics, ...}, `_agent_metrics.json` a list of flat metrics with agent_ref.
 */
export function checkAggregate(value: unknown, file: string, collection: Collection): { lines: AggregateLine[]; problems: Problem[] } {
  const lines: AggregateLine[] = [];
  const problems: Problem[] = [];
  const entries = Array.isArray(value) ? value : isObject(value) ? [value] : null;
  if (!entries) return { lines, problems: [problem(file, 'not a list of per-agent metrics; not checked')] };
  const { rollouts } = collection;
  const places = Array.from({ length: rollouts.length }, (_, k) => k);
  const agents = new Set(places.map((k) => rollouts.agent(k)));
  for (const entry of arr(entries)) {
    const metrics = obj(obj(entry).agent_metrics ?? entry);
    const agent = agentName(obj(entry).agent_ref);
    // An aggregate of one agent speaks for every row when the rows do not name their agent.
    const rows = places.filter((k) => rollouts.agent(k) === agent || (agents.size === 1 && !agents.has(agent)));
    for (const [metric, give] of Object.entries(CHECKED)) {
      const said = num(metrics[metric]);
      if (said === null) continue;
      const found = give(rollouts, rows);
      lines.push({ agent, metric, said, rows: found });
      if (found !== null && Math.abs(said - found) > TOLERANCE * Math.max(1, Math.abs(said))) {
        problems.push(problem(file, `${metric} ${said}${agent ? ` for ${agent}` : ''}, but ${rows.length === 1 ? 'the row gives' : `the ${whole(rows.length)} rows give`} ${found}`));
      }
    }
  }
  if (lines.length === 0 && collection.rollouts.length) problems.push(problem(file, 'holds no mean/reward to check against the rows', { severity: 'warning' }));
  return { lines, problems };
}
