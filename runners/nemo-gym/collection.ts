// What a collection's rows add up to: units, per agent and per task, failures by class, tokens. Pure:
// the adapter reads the rows, this counts them (formats.md section 5).
import { problem, type EpisodeUnit, type Problem } from '../../shared/model';
import { addSorted } from '../../shared/arrays';
import { noteRow, type Noted } from '../common/integrity';
import { addReward, emptyStats, outcomeWord, successOf, type RewardStats, type TaskStats } from './reward-stats';
import { RowList } from './row-list';
import { unitOf, type CountedValues, type NemoRow, type PlannedUnit, type RowBlock, type RowUsage } from './row-block';
import { byText, UnitLists } from './unit-lists';

/** A unit as a key: a number where it fits (unitNumber, a Collector's keyOf), else text. */
type UnitKey = number | string;

/** Tasks numbered below this are found by their number in a typed array (16 MB at most). */
const DENSE_TASKS = 1 << 22;

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
  rollouts: RowList;
  /** Distinct units the materialized inputs plan; null when there are none. */
  planned: number | null;
  /** Units with a rollout or a terminal failure. */
  done: number;
  /** Planned units with no rollout or terminal failure yet. */
  missing: number;
  /** Units (by keyOf) whose failure row is terminal and that have no rollout. */
  failedUnits: Map<UnitKey, NemoRow>;
  all: RewardStats;
  byAgent: Map<string, RewardStats>;
  /** Each agent's planned units, the models its rollouts name and their tokens ('' for rows that name no agent). */
  agentPlans: Map<string, number>;
  agentModels: Map<string, Set<string>>;
  agentTokens: Map<string, RowUsage>;
  tasks: TaskStats[];
  failures: FailureClass[];
  tokens: RowUsage;
  models: Set<string>;
  problems: Problem[];
  /** What breaks the integrity rules: a unit's rollout given again (each a problem naming its line). */
  integrity: Problem[];
  /** Rollouts without a numeric reward (not scored), and those of a unit the materialized inputs do not plan: how many, the first few named. */
  unscored: Noted;
  unplanned: Noted;
  /** Rollouts with a negative token count (left out of the sums), each named with its first such field. */
  negative: Noted;
  /** The places in `rollouts` of units given again with another outcome: neither is scored. */
  conflicted: Set<number>;
}

/** A rollout of a kind (Noted), the first few as `agent/unit at line n`. */
function note(noted: Noted, row: Pick<NemoRow, 'task' | 'repeat' | 'line' | 'agent'>, detail = ''): void {
  noteRow(noted, () => `${row.agent ? `${row.agent}/` : ''}${unitOf(row)} at line ${row.line}${detail}`);
}

/** The response's usage fields the token counts come from, in RowUsage's order. */
export const TOKEN_FIELDS = ['usage.input_tokens', 'usage.input_tokens_details.cached_tokens', 'usage.output_tokens', 'usage.output_tokens_details.reasoning_tokens'];

/** The rows' token counts summed (input, cached, output, reasoning), each null until a row gives it. */
class TokenSums {
  private readonly sums = new Float64Array(4);
  private given = 0;

  /** Adds a row's counts; a negative one is left out. Returns the first negative one's place, -1 for none. */
  add(counts: readonly (number | null)[]): number {
    let negative = -1;
    for (let which = 0; which < 4; which++) {
      const count = counts[which] as number | null;
      if (count === null) continue;
      if (count < 0) {
        if (negative < 0) negative = which;
        continue;
      }
      this.sums[which] = (this.sums[which] as number) + count;
      this.given |= 1 << which;
    }
    return negative;
  }

  get total(): RowUsage {
    const sum = (which: number) => (this.given & (1 << which) ? (this.sums[which] as number) : null);
    return { input: sum(0), cached: sum(1), output: sum(2), reasoning: sum(3) };
  }

  /** The sums of several as one: the collection's, from its agents' (whole numbers, so in any order). */
  static totalOf(parts: Iterable<TokenSums>): RowUsage {
    const whole = new TokenSums();
    for (const part of parts) {
      for (let which = 0; which < 4; which++) whole.sums[which] = (whole.sums[which] as number) + (part.sums[which] as number);
      whole.given |= part.given;
    }
    return whole.total;
  }
}

/**
 * What is known of a unit, as one number: the line of its first rollout (lines count from 1) times 8, 0
 * while it has none, plus these flags. One map of these is looked up once for each row, where a map of
 * each fact was looked up in turn.
 */
const PLANNED = 1;
const DONE = 2;
/** Given again with another outcome: neither is scored. */
const CONFLICT = 4;
const ROLLOUT_LINE = 8;

/**
 * A collection counted as its files grow: each read hands it the rows of the three files as they are now,
 * and only rows it has not met yet are counted, so an append costs what was appended. A file that shrank
 * (rewritten), or inputs that grew once rollouts were counted, start the count again.
 */
export class Collector {
  private seen = { inputs: 0, rows: 0, failures: 0 };
  /** The first record of each file as counted: the cache hands the same objects while a file only grows. */
  private firsts: (RowBlock | PlannedUnit | undefined)[] = [];
  private c!: Collection;
  /** Each unit of an agent (keyOf) met so far: what is known of it (PLANNED, DONE, its rollout's line). */
  private unitStates!: Map<UnitKey, number>;
  /** The materialized inputs counted, for the agent they name (plannedAgent). */
  private inputs: readonly PlannedUnit[] = [];
  /** Each unit's agent as its first materialized input names it, made when a row names none. */
  private plannedAgents: Map<UnitKey, string | null> | null = null;
  /** Each agent's number, in the order met (keyOf). */
  private agents!: Map<string | null, number>;
  /**
   * Each task's stats: by its number where that is a whole one below DENSE_TASKS (a collection's tasks are
   * 0..n), at `taskSlots[task] - 1` of `taskList`, read faster than a map; the others in `taskStats`.
   */
  private taskSlots!: Int32Array;
  private taskList!: TaskStats[];
  private taskStats!: Map<number, TaskStats>;
  /** Tasks met since the tasks were last put in order. */
  private newTasks!: TaskStats[];
  private classes!: Map<string, FailureClass>;
  /** Changes to units already counted (a failed unit's rollout came, a unit given again with another outcome): a unit list from before one is made again. */
  private unitChanges = 0;
  /** A unit was given again with another outcome since the rewards were last counted (recountRewards). */
  private recount = false;
  private lists!: UnitLists;
  /** Each agent's token sums; the collection's are theirs together. */
  private agentTokens!: Map<string, TokenSums>;
  private lastAgent = '';
  private lastTokens: TokenSums | null = null;
  /** The row being counted, read into one object (RowBlock.readCounted). */
  private readonly row: CountedValues = { line: 0, task: 0, repeat: null, scored: null, agent: null, model: null, tokens: [null, null, null, null] };

  constructor(private readonly files: { rollouts: string; failures: string }) {
    this.reset();
  }

  private reset(): void {
    this.seen = { inputs: 0, rows: 0, failures: 0 };
    this.firsts = [];
    this.unitStates = new Map();
    this.plannedAgents = null;
    this.agents = new Map();
    this.taskSlots = new Int32Array(1024);
    this.taskList = [];
    this.taskStats = new Map();
    this.newTasks = [];
    this.classes = new Map();
    this.lists = new UnitLists();
    this.agentTokens = new Map();
    this.lastTokens = null;
    this.c = {
      rollouts: new RowList(), planned: null, done: 0, missing: 0, failedUnits: new Map(), all: emptyStats(), byAgent: new Map(), agentPlans: new Map(), agentModels: new Map(), agentTokens: new Map(), tasks: [], failures: [],
      tokens: { input: null, cached: null, output: null, reasoning: null }, models: new Set(), problems: [], integrity: [],
      unscored: { rows: 0, first: [] }, unplanned: { rows: 0, first: [] }, negative: { rows: 0, first: [] }, conflicted: new Set(),
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

  /** A row without agent_ref is the agent its unit's materialized input names. */
  private plannedAgent(task: number, repeat: number | null): string | null {
    if (!this.plannedAgents) {
      this.plannedAgents = new Map();
      for (const input of this.inputs) {
        const unit = unitNumber(input.task as number, input.repeat);
        if (!this.plannedAgents.has(unit)) this.plannedAgents.set(unit, input.agent);
      }
    }
    return this.plannedAgents.get(unitNumber(task, repeat)) ?? null;
  }

  private task(task: number): TaskStats {
    if (task >= 0 && task < DENSE_TASKS && Number.isInteger(task)) {
      if (task >= this.taskSlots.length) {
        const grown = new Int32Array(Math.min(DENSE_TASKS, Math.max(task + 1, this.taskSlots.length * 2)));
        grown.set(this.taskSlots);
        this.taskSlots = grown;
      }
      const slot = this.taskSlots[task] as number;
      if (slot) return this.taskList[slot - 1] as TaskStats;
      const stats = this.newTask(task);
      this.taskSlots[task] = this.taskList.push(stats);
      return stats;
    }
    let stats = this.taskStats.get(task);
    if (!stats) this.taskStats.set(task, (stats = this.newTask(task)));
    return stats;
  }

  private newTask(task: number): TaskStats {
    const stats = { task, planned: null, n: 0, successes: 0, sum: 0 };
    this.newTasks.push(stats);
    return stats;
  }

  /** An agent's token sums: the last one's again without a lookup, as a collection's rows come agent by agent. */
  private tokensOf(agent: string): TokenSums {
    if (agent === this.lastAgent && this.lastTokens) return this.lastTokens;
    let sums = this.agentTokens.get(agent);
    if (!sums) this.agentTokens.set(agent, (sums = new TokenSums()));
    this.lastAgent = agent;
    return (this.lastTokens = sums);
  }

  /** A unit has its rollout or its terminal failure: its state from now on. */
  private finish(state: number): number {
    if (state & DONE) return state;
    this.c.done++;
    if (state & PLANNED) this.c.missing--;
    return state | DONE;
  }

  private addInput(input: PlannedUnit): void {
    const key = this.unitKey(input);
    const state = this.unitStates.get(key) ?? 0;
    if (state & PLANNED) return;
    this.unitStates.set(key, state | PLANNED);
    this.c.planned = (this.c.planned ?? 0) + 1;
    this.c.agentPlans.set(input.agent ?? '', (this.c.agentPlans.get(input.agent ?? '') ?? 0) + 1);
    if (!(state & DONE)) this.c.missing++;
    const stats = this.task(input.task as number);
    stats.planned = (stats.planned ?? 0) + 1;
  }

  private addRollout(block: RowBlock, i: number): void {
    const c = this.c;
    const row = this.row;
    block.readCounted(i, row);
    const { task, repeat, line } = row;
    // Several agents in one collection run the same tasks: a unit is one agent's.
    const agent = row.agent ?? this.plannedAgent(task, repeat);
    const key = this.keyOf(agent, task, repeat);
    const state = this.unitStates.get(key) ?? 0;
    if (state >= ROLLOUT_LINE) {
      this.repeated(key, state, agent, line);
      return;
    }
    if (c.planned !== null && !(state & PLANNED)) note(c.unplanned, { task, repeat, line, agent });
    this.unitStates.set(key, this.finish(state) + line * ROLLOUT_LINE);
    if (c.failedUnits.size && c.failedUnits.delete(key)) this.unitChanges++;
    c.rollouts.push(block, i, agent);
    const reward = row.scored;
    if (reward === null) note(c.unscored, { task, repeat, line, agent });
    addReward(c.all, reward);
    let byAgent = c.byAgent.get(agent ?? '');
    if (!byAgent) c.byAgent.set(agent ?? '', (byAgent = emptyStats()));
    addReward(byAgent, reward);
    addReward(this.task(task), reward);
    const negative = this.tokensOf(agent ?? '').add(row.tokens);
    if (negative >= 0) note(c.negative, { task, repeat, line, agent }, ` (${TOKEN_FIELDS[negative]} ${row.tokens[negative]})`);
    if (row.model) {
      c.models.add(row.model);
      let models = c.agentModels.get(agent ?? '');
      if (!models) c.agentModels.set(agent ?? '', (models = new Set()));
      models.add(row.model);
    }
  }

  /**
   * A unit's rollout given again (the row being counted): a problem naming both lines, not counted. With
   * another outcome than the first's, neither is scored: the first is taken out of every count and its unit
   * listed as `repeated` (as oneOutcome has it for every format).
   */
  private repeated(key: UnitKey, state: number, agent: string | null, line: number): void {
    const c = this.c;
    const { task, repeat, scored } = this.row;
    const again = `repeats rollout ${unitOf({ task, repeat })}${agent ? ` of ${agent}` : ''} (first at line ${Math.floor(state / ROLLOUT_LINE)})`;
    const first = state & CONFLICT ? -1 : c.rollouts.placeOfLine(Math.floor(state / ROLLOUT_LINE));
    const [was, now] = [first < 0 ? null : successOf(c.rollouts.scoredReward(first)), successOf(scored)];
    if (first < 0 || was === now) {
      c.integrity.push(problem(this.files.rollouts, `${again}; not counted`, { line }));
      return;
    }
    c.integrity.push(problem(this.files.rollouts, `${again} with another outcome (${outcomeWord(was)}, then ${outcomeWord(now)}): neither is scored`, { line }));
    this.unitStates.set(key, state | CONFLICT);
    c.conflicted.add(first);
    this.unitChanges++;
    this.recount = true;
  }

  /**
   * The rewards counted again without the units given twice with two outcomes, in file order as first: a
   * reward taken back out of a sum of floats would leave it a few bits off the sum that never held it. Done
   * once for each update that met such a unit, not for each row.
   */
  private recountRewards(): void {
    const c = this.c;
    this.recount = false;
    for (const stats of [c.all, ...c.byAgent.values(), ...this.taskList, ...this.taskStats.values()]) Object.assign(stats, { n: 0, successes: 0, sum: 0 });
    for (let k = 0; k < c.rollouts.length; k++) {
      if (c.conflicted.has(k)) continue;
      const reward = c.rollouts.scoredReward(k);
      addReward(c.all, reward);
      addReward(c.byAgent.get(c.rollouts.agent(k) ?? '') as RewardStats, reward);
      addReward(this.task(c.rollouts.task(k)), reward);
    }
  }

  private addFailure(block: RowBlock, i: number): void {
    const name = block.failureClass(i) ?? 'unclassified';
    const entry = this.classes.get(name) ?? { name, rows: 0, terminal: 0, attempts: null };
    entry.rows++;
    const terminal = block.terminal(i);
    const attempt = block.attempt(i);
    if (terminal) entry.terminal++;
    if (attempt !== null) entry.attempts = Math.max(entry.attempts ?? 0, attempt);
    this.classes.set(name, entry);
    if (!terminal) return;
    const task = block.task(i);
    const repeat = block.repeat(i);
    const agent = block.agent(i) ?? this.plannedAgent(task, repeat);
    const key = this.keyOf(agent, task, repeat);
    const state = this.unitStates.get(key) ?? 0;
    if (state >= ROLLOUT_LINE) return;
    this.unitStates.set(key, this.finish(state));
    this.c.failedUnits.set(key, { ...block.row(i), agent, failureClass: name });
    this.unitChanges++;
  }

  /**
   * The inputs and the rollouts as far as a long read has joined them, counted while it reads on: the next
   * update counts the rest, the failures, and what is made of them all. Only rows not met yet are counted.
   */
  countSoFar(inputs: readonly PlannedUnit[] | null, rows: readonly RowBlock[]): void {
    const grewInputs = (inputs?.length ?? 0) > this.seen.inputs;
    const rewritten = [inputs?.[0], rows[0]].some((first, i) => this.firsts[i] !== undefined && this.firsts[i] !== first);
    if (rewritten || (inputs?.length ?? 0) < this.seen.inputs || rows.length < this.seen.rows || (grewInputs && this.seen.rows + this.seen.failures > 0)) this.reset();
    this.firsts[0] = inputs?.[0];
    this.firsts[1] = rows[0];
    if (grewInputs) this.plannedAgents = null;
    this.inputs = inputs ?? [];
    for (let i = this.seen.inputs; i < (inputs?.length ?? 0); i++) this.addInput((inputs as PlannedUnit[])[i] as PlannedUnit);
    for (const block of rows.slice(this.seen.rows)) for (let i = 0; i < block.length; i++) this.addRollout(block, i);
    this.seen.inputs = inputs?.length ?? 0;
    this.seen.rows = rows.length;
  }

  /** The collection as of these rows (each file's, whole, as read now). */
  update(inputs: readonly PlannedUnit[] | null, rows: readonly RowBlock[], failures: readonly RowBlock[]): Collection {
    if ((this.firsts[2] !== undefined && this.firsts[2] !== failures[0]) || failures.length < this.seen.failures) this.reset();
    this.countSoFar(inputs, rows);
    this.firsts[2] = failures[0];
    for (const block of failures.slice(this.seen.failures)) for (let i = 0; i < block.length; i++) this.addFailure(block, i);
    this.seen.failures = failures.length;
    if (this.recount) this.recountRewards();
    if (this.newTasks.length) this.c.tasks = addSorted(this.c.tasks, this.newTasks.splice(0), (a, b) => a.task - b.task).sorted;
    this.c.tokens = TokenSums.totalOf(this.agentTokens.values());
    for (const [agent, sums] of this.agentTokens) this.c.agentTokens.set(agent, sums.total);
    this.c.failures = [...this.classes.values()].sort((a, b) => b.rows - a.rows || byText(a.name, b.name));
    if (inputs === null) this.c.planned = null;
    return this.c;
  }

  /** The units a paired test pairs (UnitLists.of): one agent's, or all. */
  units(agent?: string): EpisodeUnit[] {
    return this.lists.of(this.c, this.unitChanges, agent);
  }
}
