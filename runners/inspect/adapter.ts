import { basename } from 'node:path';
import { problem, type CellState, type EpisodeUnit, type Problem } from '../../shared/model';
import { counted } from '../../shared/counts';
import { append } from '../../shared/arrays';
import { namedSome } from '../common/integrity';
import { baseCell, judgeBoard } from '../common/cell';
import { num, obj, str } from '../common/values';
import { isRecent, type FinishedUnit, type FormatAdapter, type ReadContext } from '../types';
import { inspectDetail } from './detail';
import { inspectLogsIn } from './files';
import { EvalMemory, readInspectLog, type InspectLog } from './log';
import { headerCheck, outcomeOf, pickedScorer, scorerOf, scorersOf, type Outcome } from './outcome';
import { readInspectTranscript } from './transcript';
import { identityName } from '../common/identity-name';
import { summedUsage, usageOf, type Usage } from './facts';

export const INSPECT_BOARD = 'an Inspect log of the task: its model, generate config and task arguments make its place';

/** What a log's status makes of the cell; without header.json, it runs while the file keeps changing. */
function stateOf(log: InspectLog, now: number): CellState {
  const status = str(log.header.status);
  if (!log.ended || status === 'started') return isRecent(log.changedAt, now) ? 'running' : 'stale';
  if (status === 'success') return 'finished';
  if (status === 'error') return 'failed';
  if (status === 'cancelled') return 'cancelled';
  return 'stale';
}

/** The samples the eval plans: its sample ids (a --limit or --sample-id run) or its dataset's samples, times its epochs; its results' count once written. */
function plannedOf(header: Record<string, unknown>): number | null {
  const written = num(obj(header.results).total_samples);
  if (written !== null) return written;
  const e = obj(header.eval);
  const dataset = obj(e.dataset);
  const samples = Array.isArray(dataset.sample_ids) ? dataset.sample_ids.length : num(dataset.samples);
  const epochs = num(obj(e.config).epochs) ?? 1;
  return samples === null ? null : samples * epochs;
}

/** Tokens over the models: the header's once it says them, else the samples'. A negative count is an `integrity` problem. */
function tokensOf(log: InspectLog, integrity: Problem[]): Usage {
  const stats = obj(log.header.stats);
  return summedUsage(log.ended && stats.model_usage !== undefined ? Object.values(usageOf(stats.model_usage, 'header.json', integrity)) : log.samples.flatMap((s) => Object.values(s.usage ?? {})));
}

/** A setting of the run as a board label: `k=v` pairs, null where there are none. */
const settings = (value: unknown, leave: readonly string[] = []) => {
  const pairs = Object.entries(obj(value)).filter(([k, v]) => !leave.includes(k) && v !== null && v !== undefined);
  return pairs.length ? pairs.map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(' ') : null;
};

const memoryOf = (path: string, ctx: ReadContext) => ctx.jsonl?.kept(`inspect:${path}`, () => new EvalMemory()) ?? new EvalMemory();

/** Each finished sample of the log as `tail` prints it: its unit, its value and outcome, its error or limit. */
async function finishedSamples(path: string, ctx: ReadContext): Promise<FinishedUnit[]> {
  const log = await readInspectLog(path, ctx, memoryOf(path, ctx));
  if (!log) return [];
  const scorer = pickedScorer(log, ctx, path, []);
  return log.samples.map((s) => {
    const { unit, value } = outcomeOf(s, scorer);
    return { unit: s.unit, t: s.completedAt === null ? null : s.completedAt / 1000, fields: { value: scorer === null ? null : (s.scores[scorer] ?? null), success: unit.success, ...(value === null ? { scored: false } : {}), ...(s.error ? { error: s.error } : {}), ...(s.limit ? { limit: s.limit } : {}) } };
  });
}

/** The scorers a view offers for a log's outcomes, each named as a pick names it (identityName). */
const offered = (scorer: string | null, scorers: string[], first: string | null) => {
  const named = (name: string | null) => (name === null ? null : identityName(name));
  return { scorer: named(scorer), scorers: scorers.map((name) => identityName(name)), first: named(first) };
};

export const inspect: FormatAdapter = {
  format: 'inspect',
  pairing: { unit: 'sample', units: "an Inspect AI log's samples, each epoch apart (<sample>#<epoch>)" },
  events: "an Inspect log's finished samples (each once, its scorer's value and outcome, however often Inspect writes the log over)",
  eventLogs: async () => [],
  capabilities: {
    fileCell: { what: 'an Inspect AI log (.eval or .json)', cellsIn: inspectLogsIn, ownerOf: () => null },
    transcripts: { read: readInspectTranscript },
    scorerPick: true,
    board: { rule: INSPECT_BOARD },
    finishedUnits: { ev: 'sample', read: finishedSamples },
  },
  async read(path, ctx, options) {
    const log = await readInspectLog(path, ctx, memoryOf(path, ctx));
    const e = obj(log?.header.eval);
    // Named by its file, as Inspect's own list names a log: two logs of one task are two cells.
    const cell = baseCell(path, 'inspect', ctx, basename(path).replace(/\.(eval|json)$/, ''));
    if (!log) return { cell, labels: { harness: null, model: null, condition: null, effort: null }, changedAt: null, units: [], gone: true };
    const problems: Problem[] = [...log.problems];
    const scorer = pickedScorer(log, ctx, path, problems);
    const outcomes = new Map<string, Outcome>(log.samples.map((s) => [s.unit, outcomeOf(s, scorer)]));
    const units: EpisodeUnit[] = log.samples.map((s) => (outcomes.get(s.unit) as Outcome).unit);
    const scored = units.filter((u) => u.scored);
    const successes = scored.filter((u) => u.success).length;
    const values = [...outcomes.values()].flatMap((o) => (o.unit.scored && o.value !== null ? [o.value] : []));
    const planned = plannedOf(log.header);
    cell.budget = { unit: 'samples', used: units.length, total: planned };
    cell.episodes = { planned, ended: units.length, scored: scored.length, excluded: units.length - scored.length, successes };
    cell.success_rate = scored.length ? successes / scored.length : null;
    cell.reward = { mean: values.length ? values.reduce((a, b) => a + b, 0) / values.length : null, n: values.length, ...(scorer ? { of: identityName(scorer) } : {}) };
    const integrity = [...log.repeats, ...log.samples.flatMap((s) => s.negative ?? [])];
    const tokens = tokensOf(log, integrity);
    cell.tokens = { input: tokens.input, cached_input: tokens.cachedInput, output: tokens.output, reasoning: tokens.reasoning };
    cell.state = stateOf(log, ctx.now);

    const error = obj(log.header.error);
    if (cell.state === 'failed') problems.push(problem(basename(path), `the eval ended in error: ${str(error.message) ?? 'no message'}`, { ...(str(error.traceback) ? { tip: str(error.traceback) as string } : {}) }));
    const failed = log.samples.filter((s) => s.error !== null);
    if (failed.length) problems.push(problem(basename(path), `${counted(failed.length, 'sample')} ended in error, not scored: ${failed.slice(0, 3).map((s) => `${s.unit} (${s.error})`).join('; ')}`, { severity: 'warning' }));
    if (scorer === null && units.length) problems.push(problem(basename(path), 'the log names no scorer: its samples are not scored', { severity: 'warning' }));
    // A value given but read as none of formats.md's (a dict of several metrics, "yes"): not scored, and said.
    const unread = scorer === null ? [] : log.samples.filter((s) => s.error === null && s.scores[scorer] !== undefined && s.scores[scorer] !== null && (outcomes.get(s.unit) as Outcome).value === null);
    if (unread.length) {
      const named = unread.map((s) => `${s.unit}: ${JSON.stringify(s.scores[scorer as string]).slice(0, 40)}`);
      problems.push(problem(basename(path), `${namedSome(named, 'sample')} with a ${scorer} value that is none of C, P, I, N, a number, true or false: not scored`, { severity: 'warning' }));
    }
    if (scorer) append(integrity, headerCheck(log, scorer, outcomes, basename(path)));
    cell.problems = problems;

    const generate = obj(e.model_generate_config);
    const steps = obj(log.header.plan).steps;
    const labels = {
      // The solvers of its plan: Inspect's agent.
      harness: Array.isArray(steps) ? steps.map((step) => str(obj(step).solver)).filter(Boolean).join(' → ') || null : null,
      model: str(e.model),
      condition: [settings(e.task_args), settings(generate, ['reasoning_effort'])].filter(Boolean).join(' ') || null,
      effort: str(generate.reasoning_effort),
    };
    judgeBoard(cell, []);
    return {
      ...(options?.detail ? { detail: { ...inspectDetail(log, outcomes, scorer), outcomeBy: offered(scorer, scorersOf(log), scorerOf(log.header)) } } : {}),
      cell,
      labels,
      changedAt: log.changedAt,
      units,
      integrity,
      boardName: `inspect ${str(e.task) ?? basename(path)}`,
    };
  },
};
