import type { DetailTable, EpisodeRow, TableValue } from '../../shared/cell-detail';
import type { Collection } from './collection';
import { meanOf, passAtK, scoredReward, successOf } from './reward-stats';
import { namesAgents, unitNamer } from './unit-lists';
import type { AggregateLine } from './aggregate';
import type { NemoRow } from './row-block';
import type { DetailRead } from '../types';
import { counted, whole } from '../../shared/counts';

/** An environment field as a table shows it: scalars whole, a long value by its size, anything else as JSON. */
function shownField(row: NemoRow, name: string): TableValue {
  const size = row.largeFields[name];
  if (size !== undefined) return `(${counted(size, 'char')})`;
  const value = row.fields[name];
  if (value === undefined) return null;
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

const shownReward = (row: NemoRow): TableValue => (scoredReward(row) ?? (row.reward === undefined ? null : JSON.stringify(row.reward)));

/**
 * The rollouts table holds the latest this-many rows, the tasks table the first: tables of a 100,000-row
 * collection's every rollout and task froze the page (`cellwatch episodes` lists them all).
 */
const SHOWN_ROWS = 200;

/** The collection's files, by name, as its tables' provenance says them. */
export interface CollectionNames {
  rollouts: string;
  failures: string;
  inputs: string;
}

/** The collection's rollouts from place `from` on (0 where it is below), whole: their fields parsed now. */
function rolloutRows(c: Collection, from: number): NemoRow[] {
  const start = Math.max(0, from);
  return Array.from({ length: Math.max(0, c.rollouts.length - start) }, (_, k) => c.rollouts.row(start + k));
}

function rolloutsTable(c: Collection, names: CollectionNames): DetailTable {
  const shown = rolloutRows(c, c.rollouts.length - SHOWN_ROWS);
  // Every environment field any row has, in the order first met: unknown ones are kept and shown.
  const fields = [...new Set(shown.flatMap((r) => Object.keys(r.fields)))];
  const notes = [
    c.rollouts.length > shown.length ? `the latest ${whole(shown.length)} of ${counted(c.rollouts.length, 'rollout')}` : null,
    shown.some((r) => scoredReward(r) === null && r.reward !== undefined) ? 'a reward that is not a number is shown as given and not scored' : null,
  ].filter(Boolean);
  return {
    id: 'rollouts',
    title: 'Rollouts',
    columns: ['rollout', 'agent', 'reward', 'input', 'cached', 'output', 'reasoning', 'observations', ...fields],
    rows: shown.map((r) => [unitNamer(c)(r), r.agent, shownReward(r), r.usage?.input ?? null, r.usage?.cached ?? null, r.usage?.output ?? null, r.usage?.reasoning ?? null, r.observed ? 'yes' : null, ...fields.map((f) => shownField(r, f))]),
    note: notes.join('; ') || null,
    counted: `${counted(c.rollouts.length, 'rollout')}${c.failedUnits.size ? ` + ${whole(c.failedUnits.size)} failed` : ''}${c.planned ? ` of ${whole(c.planned)} planned` : ''}`,
    from: `${names.rollouts}: one row per unit (task, repeat, agent), a unit written twice a problem; failed: terminal rows of ${names.failures} with no rollout; planned: the units ${names.inputs} lists; tokens: the response's usage`,
    opens: 'transcript',
  };
}

function tasksTable(c: Collection, names: CollectionNames): DetailTable {
  const shown = c.tasks.slice(0, SHOWN_ROWS);
  const rewards = c.rollouts.rewardsOf(new Set(shown.map((t) => t.task)));
  const more = c.tasks.length > shown.length ? `the first ${whole(shown.length)} of ${counted(c.tasks.length, 'task')}; ` : '';
  return {
    id: 'tasks',
    title: 'Tasks',
    columns: ['task', 'repeats done', 'of planned', 'rewards', 'mean reward', 'pass@k'],
    rows: shown.map((t) => {
      const pass = passAtK(t);
      const given = rewards.get(t.task) ?? [];
      return [t.task, given.length, t.planned, given.map((r) => JSON.stringify(r)).join(' '), meanOf(t), pass === null ? null : pass ? 'pass' : 'fail'];
    }),
    note: `${more}pass@k: any of the task's k repeats reached reward >= 1`,
    counted: counted(c.tasks.length, 'task'),
    from: `${names.rollouts}: each task's rollouts (every agent's); planned: the repeats ${names.inputs} lists; a repeat that failed for good (${names.failures}) is not done`,
  };
}

function agentsTable(c: Collection, names: CollectionNames): DetailTable {
  return {
    id: 'agents',
    title: 'Agents',
    columns: ['agent', 'scored', 'successes', 'success rate', 'mean reward'],
    rows: [...c.byAgent].map(([agent, s]) => [agent || '(unnamed)', s.n, s.successes, s.n ? s.successes / s.n : null, meanOf(s)]),
    note: null,
    counted: counted(c.byAgent.size, 'agent'),
    from: `${names.rollouts}: each agent's rollouts with a numeric reward (scored), each unit once; success: reward >= 1, as the header counts it`,
    shares: ['success rate'],
  };
}

function failuresTable(c: Collection, names: CollectionNames): DetailTable {
  return {
    id: 'failures',
    title: 'Failures',
    columns: ['class', 'rows', 'terminal', 'highest attempt'],
    rows: c.failures.map((f) => [f.name, f.rows, f.terminal, f.attempts]),
    note: 'a killed worker writes no row: a resume runs what has none',
    counted: counted(c.failures.length, 'class', 'classes'),
    from: `${names.failures}: its rows by _ng_failure_class; terminal: rows marked _ng_failure_terminal; a unit that failed for good and has no rollout counts as failed`,
  };
}

function aggregateTable(lines: AggregateLine[], file: string): DetailTable {
  return {
    id: 'aggregate',
    title: `Aggregate (${file})`,
    columns: ['agent', 'metric', 'file says', 'rows give'],
    rows: lines.map((l) => [l.agent, l.metric, l.said, l.rows]),
    note: null,
    counted: counted(lines.length, 'metric'),
    from: `${file}: each metric the collector wrote, beside what the rollouts give; a mismatch is a problem`,
  };
}

/** What an Episodes row shows of a rollout or a failure: its row but its fields, of which only the run time. */
type EpisodeSource = Pick<NemoRow, 'agent' | 'task' | 'repeat' | 'reward' | 'usage' | 'failureClass'> & { runTime: unknown; repeated?: boolean };

/**
 * A rollout or terminal failure as an Episodes row: `failed`, its class in the note (a pill of
 * `failed: sandbox_timeout` was the widest thing of a narrow table); the note names the agent where the id
 * does not (one agent).
 */
function episodeRow(row: EpisodeSource, id: string, named: boolean): EpisodeRow {
  // A unit given again with another outcome is not scored, whatever its first rollout's reward.
  const success = row.repeated ? null : successOf(scoredReward(row));
  return {
    id,
    status: row.failureClass ? 'failed' : row.repeated ? 'repeated' : 'rollout',
    success,
    scored: success !== null,
    toolCalls: null,
    actions: null,
    wallS: typeof row.runTime === 'number' ? row.runTime : null,
    t: null,
    usage: row.usage && (row.usage.input !== null || row.usage.output !== null) ? { input: row.usage.input, cached: row.usage.cached, output: row.usage.output } : null,
    note: [named ? null : row.agent, row.failureClass ?? `reward ${JSON.stringify(row.reward ?? null)}`].filter(Boolean).join(' · '),
    hasEvents: false,
    group: row.agent || '(unnamed)',
  };
}

/**
 * The collection's rollouts from place `from` on and then its failed units, as the Episodes tab shows them:
 * a rollout's fields are not parsed for it (a tab of 10,000 took a read of the collection 20 ms more).
 */
function episodeSources(c: Collection, from: number): EpisodeSource[] {
  const { rollouts } = c;
  const shown: EpisodeSource[] = [];
  for (let k = Math.max(0, from); k < rollouts.length; k++) {
    shown.push({ agent: rollouts.agent(k), task: rollouts.task(k), repeat: rollouts.repeat(k), reward: rollouts.reward(k), usage: rollouts.usage(k), failureClass: rollouts.failureClass(k), runTime: rollouts.field(k, 'agent_run_time'), repeated: c.conflicted.has(k) });
  }
  for (const row of [...c.failedUnits.values()].slice(Math.max(0, from - rollouts.length))) shown.push({ ...row, runTime: row.fields.agent_run_time });
  return shown;
}

/** The Episodes tab holds the latest this-many rollouts and failures: all of 123,800 took the page 0.7 s at each look. */
const SHOWN_EPISODES = 10_000;

/** What the cell view shows of a collection: a row per rollout and per terminal failure, and its tables. */
export function nemoDetail(c: Collection, names: CollectionNames, aggregate: AggregateLine[], aggregateFile: string | null): DetailRead {
  const tables = [agentsTable(c, names), tasksTable(c, names), rolloutsTable(c, names)];
  if (c.failures.length) tables.push(failuresTable(c, names));
  if (aggregateFile) tables.push(aggregateTable(aggregate, aggregateFile));
  const all = c.rollouts.length + c.failedUnits.size;
  const from = Math.max(0, all - SHOWN_EPISODES);
  const [idOf, named] = [unitNamer(c), namesAgents(c)];
  return {
    episodes: episodeSources(c, from).map((row) => episodeRow(row, idOf(row), named)),
    ...(from > 0 ? { episodesLeftOut: from } : {}),
    versions: [],
    vram: [],
    startedAt: null,
    episodeBudget: null,
    frameSources: [],
    logStream: 'rollouts',
    otherBudgets: [],
    tables,
    programs: [],
  };
}
