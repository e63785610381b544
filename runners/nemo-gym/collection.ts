// What a collection's rows add up to: units, per agent and per task, failures by class, tokens. Pure:
// the adapter reads the rows, this counts them (formats.md section 5).
import { problem, type EpisodeUnit, type Problem } from '../../shared/model';
import { unitOf, type NemoRow } from './rows';

/** One agent's unit: what is counted once. */
const keyOf = (row: NemoRow) => `${row.agent ?? ''}\u0000${unitOf(row)}`;

/** A rollout succeeds when its reward is at least 1; a reward that is no number is not scored. */
export const scoredReward = (row: NemoRow): number | null => (typeof row.reward === 'number' && Number.isFinite(row.reward) ? row.reward : null);

export interface RewardStats {
  /** Rollouts with a numeric reward. */
  n: number;
  successes: number;
  sum: number;
}

const emptyStats = (): RewardStats => ({ n: 0, successes: 0, sum: 0 });

function add(stats: RewardStats, reward: number | null): void {
  if (reward === null) return;
  stats.n++;
  stats.sum += reward;
  if (reward >= 1) stats.successes++;
}

export const meanOf = (stats: RewardStats) => (stats.n ? stats.sum / stats.n : null);

export interface TaskStats {
  task: number;
  /** Repeats the materialized inputs plan for it (k); null without them. */
  planned: number | null;
  rewards: unknown[];
  stats: RewardStats;
}

export interface FailureClass {
  name: string;
  rows: number;
  terminal: number;
  /** The highest attempt index a row of the class gives. */
  attempts: number | null;
}

export interface Collection {
  /** Each unit's rollout, once, in file order. */
  rollouts: NemoRow[];
  /** Distinct units (by keyOf) the materialized inputs plan; null when there are none. */
  planned: Set<string> | null;
  /** Units (by keyOf) with a rollout or a terminal failure. */
  done: Set<string>;
  /** Units (by keyOf) whose failure row is terminal and that have no rollout. */
  failedUnits: Map<string, NemoRow>;
  all: RewardStats;
  byAgent: Map<string, RewardStats>;
  tasks: TaskStats[];
  failures: FailureClass[];
  tokens: { input: number | null; cached: number | null; output: number | null; reasoning: number | null };
  models: Set<string>;
  problems: Problem[];
}

const sumField = (rows: NemoRow[], field: 'input' | 'cached' | 'output' | 'reasoning') => {
  let sum: number | null = null;
  for (const row of rows) {
    const v = row.usage?.[field];
    if (typeof v === 'number') sum = (sum ?? 0) + v;
  }
  return sum;
};

/** The rows of the three files, counted; `files` names them in problems. */
export function collect(inputs: NemoRow[] | null, rows: NemoRow[], failureRows: NemoRow[], files: { rollouts: string; failures: string }): Collection {
  const problems: Problem[] = [];
  const planned = new Set<string>();
  const plannedAgent = new Map<string, string | null>();
  const plannedPerTask = new Map<number, number>();
  for (const input of inputs ?? []) {
    const key = keyOf(input);
    if (planned.has(key)) continue;
    planned.add(key);
    // A rollout row without agent_ref is the agent its materialized input names.
    if (!plannedAgent.has(unitOf(input))) plannedAgent.set(unitOf(input), input.agent);
    plannedPerTask.set(input.task as number, (plannedPerTask.get(input.task as number) ?? 0) + 1);
  }
  const agentOf = (row: NemoRow) => row.agent ?? plannedAgent.get(unitOf(row)) ?? null;

  // Several agents in one collection run the same tasks: a unit is one agent's.
  const firstLine = new Map<string, number>();
  const rollouts: NemoRow[] = [];
  for (const raw of rows) {
    const row = raw.agent === null ? { ...raw, agent: agentOf(raw) } : raw;
    const key = keyOf(row);
    const first = firstLine.get(key);
    if (first !== undefined) {
      problems.push(problem(files.rollouts, `repeats rollout ${unitOf(row)}${row.agent ? ` of ${row.agent}` : ''} (first at line ${first}); not counted`, { line: row.line }));
      continue;
    }
    firstLine.set(key, row.line);
    rollouts.push(row);
  }

  const failedUnits = new Map<string, NemoRow>();
  const classes = new Map<string, FailureClass>();
  for (const row of failureRows) {
    const name = row.failureClass ?? 'unclassified';
    const entry = classes.get(name) ?? { name, rows: 0, terminal: 0, attempts: null };
    entry.rows++;
    if (row.terminal) entry.terminal++;
    if (row.attempt !== null) entry.attempts = Math.max(entry.attempts ?? 0, row.attempt);
    classes.set(name, entry);
    const failed = { ...row, agent: agentOf(row), failureClass: row.failureClass ?? 'unclassified' };
    if (row.terminal && !firstLine.has(keyOf(failed))) failedUnits.set(keyOf(failed), failed);
  }

  const all = emptyStats();
  const byAgent = new Map<string, RewardStats>();
  const tasks = new Map<number, TaskStats>();
  for (const row of rollouts) {
    const reward = scoredReward(row);
    add(all, reward);
    const agent = row.agent ?? '';
    const stats = byAgent.get(agent) ?? emptyStats();
    add(stats, reward);
    byAgent.set(agent, stats);
    const task = tasks.get(row.task as number) ?? { task: row.task as number, planned: plannedPerTask.get(row.task as number) ?? null, rewards: [], stats: emptyStats() };
    task.rewards.push(row.reward);
    add(task.stats, reward);
    tasks.set(row.task as number, task);
  }
  for (const [task, planned] of plannedPerTask) if (!tasks.has(task)) tasks.set(task, { task, planned, rewards: [], stats: emptyStats() });

  const done = new Set([...firstLine.keys(), ...failedUnits.keys()]);
  const models = new Set(rollouts.flatMap((r) => (r.model ? [r.model] : [])));
  return {
    rollouts,
    planned: inputs ? planned : null,
    done,
    failedUnits,
    all,
    byAgent,
    tasks: [...tasks.values()].sort((a, b) => a.task - b.task),
    failures: [...classes.values()].sort((a, b) => b.rows - a.rows || a.name.localeCompare(b.name)),
    tokens: { input: sumField(rollouts, 'input'), cached: sumField(rollouts, 'cached'), output: sumField(rollouts, 'output'), reasoning: sumField(rollouts, 'reasoning') },
    models,
    problems,
  };
}

/**
 * The units a paired test pairs, in `<task>#<rollout>` order: each rollout, and each terminal failure as
 * not scored. One agent's (`agent`), or all; with several agents, each unit is named `<agent>/<task>#<rollout>`.
 */
export function unitsOf(collection: Collection, agent?: string): EpisodeUnit[] {
  const mine = (row: NemoRow) => agent === undefined || row.agent === agent;
  const named = agent === undefined && collection.byAgent.size > 1 ? (row: NemoRow) => `${row.agent ?? ''}/${unitOf(row)}` : unitOf;
  const ordered = [...collection.rollouts.filter(mine), ...[...collection.failedUnits.values()].filter(mine)].sort(
    (a, b) => (a.agent ?? '').localeCompare(b.agent ?? '') || (a.task as number) - (b.task as number) || (a.repeat ?? 0) - (b.repeat ?? 0),
  );
  return ordered.map((row) => {
    if (row.failureClass !== null) return { id: named(row), status: `failed: ${row.failureClass}`, success: null, scored: false };
    const reward = scoredReward(row);
    return { id: named(row), status: 'rollout', success: reward === null ? null : reward >= 1, scored: reward !== null };
  });
}

/** A task passes at k (k its repeats) when any of its repeats succeeded; null while none is scored. */
export const passAtK = (task: TaskStats): boolean | null => (task.stats.n ? task.stats.successes > 0 : null);
