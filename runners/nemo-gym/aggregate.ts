// The collector's own aggregate, written at the end, checked against what the rows give: a mismatch is
// a problem, as for the coding-agent runner's summary.
import { problem, type Problem } from '../../shared/model';
import { isObject } from '../common/json';
import { arr, num, obj, str } from '../common/values';
import type { Collection } from './collection';
import type { NemoRow } from './rows';

/** The metrics the rows can give again, and how. */
const CHECKED: Record<string, (rows: NemoRow[]) => number | null> = {
  'mean/reward': (rows) => mean(rows.map((r) => (typeof r.reward === 'number' ? r.reward : null))),
  'mean/input_tokens': (rows) => mean(rows.map((r) => r.usage?.input ?? null)),
  'mean/output_tokens': (rows) => mean(rows.map((r) => r.usage?.output ?? null)),
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
  const agents = new Set(collection.rollouts.map((r) => r.agent));
  for (const entry of arr(entries)) {
    const metrics = obj(obj(entry).agent_metrics ?? entry);
    const agent = str(obj(obj(entry).agent_ref).name);
    // An aggregate of one agent speaks for every row when the rows do not name their agent.
    const rows = collection.rollouts.filter((r) => r.agent === agent || (agents.size === 1 && !agents.has(agent)));
    for (const [metric, give] of Object.entries(CHECKED)) {
      const said = num(metrics[metric]);
      if (said === null) continue;
      const given = give(rows);
      lines.push({ agent, metric, said, rows: given });
      if (given !== null && Math.abs(said - given) > TOLERANCE * Math.max(1, Math.abs(said))) {
        problems.push(problem(file, `${metric} ${said}${agent ? ` for ${agent}` : ''}, but the ${rows.length} rows give ${given}`));
      }
    }
  }
  if (lines.length === 0 && collection.rollouts.length) problems.push(problem(file, 'holds no mean/reward to check against the rows', { severity: 'warning' }));
  return { lines, problems };
}
