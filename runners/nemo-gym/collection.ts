// What a collection's rows add up to: units, per agent and per task, failures by class, tokens. Pure:
// the adapter reads the rows, this counts them (formats.md section 5).
import { problem, type EpisodeUnit, type Problem } from '../../shared/model';
import { addSorted } from '../../shared/arrays';
import { addReward, emptyStats, scoredReward, type RewardStats, type TaskStats } from './reward-stats';
import { unitOf, type NemoRow, type PlannedUnit, type RowUsage } from './rows';
import { byText, UnitLists } from './unit-lists';

/** A unit as a key: a number where it fits (unitNumber, a Collector's keyOf), else text. */
type UnitKey = number | string;

/**
 * A unit whatever its agent as a key: task x 4096 + repeat while that is below 2^43 (tasks below 2^31,
 * repeats below 4,096), else text. Each unit is met four times in a count: a number is hashed at once,
 * text is built first.
 */
function unitNumber(task: number, repeat: number | null): UnitKey {
  const r = repeat ?? 0;
  return task >= 0 && task < 2 ** 31 && r >= 0 && r < 4096 ? task * 4096 + r : `${task}#${r}`;
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
  planned: Set<UnitKey> | null;
  /** Units (by keyOf) with a rollout or a terminal failure. */
  done: Set<UnitKey>;
  /** Planned units with no rollout or terminal failure yet. */
  missing: number;
  /** Units (by keyOf) whose failure row is terminal and that have no rollout. */
  failedUnits: Map<UnitKey, NemoRow>;
  all: RewardStats;
  byAgent: Map<string, RewardStats>;
  tasks: TaskStats[];
  failures: FailureClass[];
  tokens: RowUsage;
  models: Set<string>;
  problems: Problem[];
}

const TOKEN_FIELDS: (keyof RowUsage)[] = ['input', 'cached', 'output', 'reasoning'];

/**
 * A collection counted as its files grow: each read hands it the rows of the three files as they are now,
 * and only rows it has not met yet are counted, so an append costs what was appended. A file that shrank
 * (rewritten), or inputs that grew once rollouts were counted, start the count again.
 */
export class Collector {
  private seen = { inputs: 0, rows: 0, failures: 0 };
  /** The first record of each file as counted: the cache hands the same objects while a file only grows. */
  private firsts: (NemoRow | PlannedUnit | undefined)[] = [];
  private c!: Collection;
  private plannedAgent!: Map<UnitKey, string | null>;
  private firstLine!: Map<UnitKey, number>;
  /** Each agent's number, in the order met (keyOf). */
  private agents!: Map<string | null, number>;
  private taskStats!: Map<number, TaskStats>;
  /** Tasks met since the tasks were last put in order. */
  private newTasks!: TaskStats[];
  private classes!: Map<string, FailureClass>;
  /** Changes to the failed units: a unit list from before one is made again. */
  private failedChanges = 0;
  private lists!: UnitLists;

  constructor(private readonly files: { rollouts: string; failures: string }) {
    this.reset();
  }

  private reset(): void {
    this.seen = { inputs: 0, rows: 0, failures: 0 };
    this.firsts = [];
    this.plannedAgent = new Map();
    this.firstLine = new Map();
    this.agents = new Map();
    this.taskStats = new Map();
    this.newTasks = [];
    this.classes = new Map();
    this.lists = new UnitLists();
    this.c = {
      rollouts: [], planned: null, done: new Set(), missing: 0, failedUnits: new Map(), all: emptyStats(), byAgent: new Map(), tasks: [], failures: [],
      tokens: { input: null, cached: null, output: null, reasoning: null }, models: new Set(), problems: [],
    };
  }

  /**
   * One agent's unit as a key: its unit's number (unitNumber) after the agent's (the first agent met is 0),
   * or text where they do not fit in 53 bits. The first agent's keys stay small integers, which V8 hashes
   * fastest.
   */
  private keyOf(agent: string | null, task: number, repeat: number | null): UnitKey {
    let index = this.agents.get(agent);
    if (index === undefined) this.agents.set(agent, (index = this.agents.size));
    const unit = unitNumber(task, repeat);
    return typeof unit === 'number' && index < 1024 ? index * 2 ** 43 + unit : `${index}\u0000${unit}`;
  }

  private unitKey(row: Pick<NemoRow, 'agent' | 'task' | 'repeat'>): UnitKey {
    return this.keyOf(row.agent, row.task as number, row.repeat);
  }

  /** A rollout row without agent_ref is the agent its materialized input names. */
  private agentOf(row: NemoRow): string | null {
    return row.agent ?? this.plannedAgent.get(unitNumber(row.task as number, row.repeat)) ?? null;
  }

  private task(task: number): TaskStats {
    let stats = this.taskStats.get(task);
    if (!stats) {
      this.taskStats.set(task, (stats = { task, planned: null, rewards: [], stats: emptyStats() }));
      this.newTasks.push(stats);
    }
    return stats;
  }

  /** A unit has its rollout or its terminal failure. */
  private finish(key: UnitKey): void {
    if (this.c.done.has(key)) return;
    this.c.done.add(key);
    if (this.c.planned?.has(key)) this.c.missing--;
  }

  private addInput(input: PlannedUnit): void {
    const planned = (this.c.planned ??= new Set());
    const key = this.unitKey(input);
    if (planned.has(key)) return;
    planned.add(key);
    if (!this.c.done.has(key)) this.c.missing++;
    const unit = unitNumber(input.task as number, input.repeat);
    if (!this.plannedAgent.has(unit)) this.plannedAgent.set(unit, input.agent);
    const stats = this.task(input.task as number);
    stats.planned = (stats.planned ?? 0) + 1;
  }

  private addRollout(raw: NemoRow): void {
    const c = this.c;
    // Several agents in one collection run the same tasks: a unit is one agent's.
    const row = raw.agent === null ? { ...raw, agent: this.agentOf(raw) } : raw;
    const key = this.unitKey(row);
    const first = this.firstLine.get(key);
    if (first !== undefined) {
      c.problems.push(problem(this.files.rollouts, `repeats rollout ${unitOf(row)}${row.agent ? ` of ${row.agent}` : ''} (first at line ${first}); not counted`, { line: row.line }));
      return;
    }
    this.firstLine.set(key, row.line);
    if (c.failedUnits.delete(key)) this.failedChanges++;
    this.finish(key);
    c.rollouts.push(row);
    const reward = scoredReward(row);
    addReward(c.all, reward);
    const agent = row.agent ?? '';
    if (!c.byAgent.has(agent)) c.byAgent.set(agent, emptyStats());
    addReward(c.byAgent.get(agent) as RewardStats, reward);
    const task = this.task(row.task as number);
    task.rewards.push(row.reward);
    addReward(task.stats, reward);
    for (const field of TOKEN_FIELDS) {
      const v = row.usage?.[field];
      if (typeof v === 'number') c.tokens[field] = (c.tokens[field] ?? 0) + v;
    }
    if (row.model) c.models.add(row.model);
  }

  private addFailure(row: NemoRow): void {
    const name = row.failureClass ?? 'unclassified';
    const entry = this.classes.get(name) ?? { name, rows: 0, terminal: 0, attempts: null };
    entry.rows++;
    if (row.terminal) entry.terminal++;
    if (row.attempt !== null) entry.attempts = Math.max(entry.attempts ?? 0, row.attempt);
    this.classes.set(name, entry);
    const failed = { ...row, agent: this.agentOf(row), failureClass: name };
    const key = this.unitKey(failed);
    if (!row.terminal || this.firstLine.has(key)) return;
    this.c.failedUnits.set(key, failed);
    this.finish(key);
    this.failedChanges++;
  }

  /** The collection as of these rows (each file's, whole, as read now). */
  update(inputs: readonly PlannedUnit[] | null, rows: readonly NemoRow[], failures: readonly NemoRow[]): Collection {
    const grewInputs = (inputs?.length ?? 0) > this.seen.inputs;
    const firsts = [inputs?.[0], rows[0], failures[0]];
    const rewritten = this.firsts.some((first, i) => first !== undefined && first !== firsts[i]);
    if (rewritten || (inputs?.length ?? 0) < this.seen.inputs || rows.length < this.seen.rows || failures.length < this.seen.failures || (grewInputs && this.seen.rows + this.seen.failures > 0)) this.reset();
    this.firsts = firsts;
    for (let i = this.seen.inputs; i < (inputs?.length ?? 0); i++) this.addInput((inputs as PlannedUnit[])[i] as PlannedUnit);
    for (let i = this.seen.rows; i < rows.length; i++) this.addRollout(rows[i] as NemoRow);
    for (let i = this.seen.failures; i < failures.length; i++) this.addFailure(failures[i] as NemoRow);
    this.seen = { inputs: inputs?.length ?? 0, rows: rows.length, failures: failures.length };
    if (this.newTasks.length) this.c.tasks = addSorted(this.c.tasks, this.newTasks.splice(0), (a, b) => a.task - b.task).sorted;
    this.c.failures = [...this.classes.values()].sort((a, b) => b.rows - a.rows || byText(a.name, b.name));
    if (inputs === null) this.c.planned = null;
    return this.c;
  }

  /** The units a paired test pairs (UnitLists.of): one agent's, or all. */
  units(agent?: string): EpisodeUnit[] {
    return this.lists.of(this.c, this.failedChanges, agent);
  }
}
