import type { EpisodeRow, UnitTokens } from '../../shared/cell-detail';
import type { JsonObject } from '../common/json';
import { num, obj, str, timestampMs } from '../common/values';
import type { DetailRead, EventLog } from '../types';
import { trialSucceeded, type EndedTrial, type Trial } from './trials';
import { fineDollars, whole } from '../../shared/counts';

/** A trial as its result.json says it, in words: task, agent, outcome, times, tokens, the runner's cost, the exception. */
function trialFacts(result: JsonObject, started: number | null, finished: number | null): { label: string; value: string }[] {
  const info = obj(result.agent_info);
  const agent = obj(result.agent_result);
  const exception = obj(result.exception_info);
  const task = obj(obj(result.config).task);
  const rewards = Object.entries(obj(obj(result.verifier_result).rewards));
  const facts: [string, string | number | null | undefined][] = [
    ['task', str(result.task_name)],
    ['source', str(task.source) ?? str(result.source)],
    ['agent', [str(info.name), str(info.version)].filter(Boolean).join(' ') || null],
    ['model', str(obj(info.model_info).name)],
    ...rewards.map(([key, value]): [string, string] => [key === 'reward' ? 'reward' : `reward ${key}`, String(value)]),
    ['outcome', trialSucceeded(result) ? 'succeeded (reward at least 1)' : 'failed'],
    ['started', str(result.started_at)],
    ['finished', str(result.finished_at)],
    ['took', started !== null && finished !== null ? `${((finished - started) / 1000).toFixed(1)} s` : null],
    ['input tokens', num(agent.n_input_tokens)],
    ['cached input tokens', num(agent.n_cache_tokens)],
    ['output tokens', num(agent.n_output_tokens)],
    ['agent turns', num(obj(agent.metadata).n_episodes)],
    ['runner said cost', num(agent.cost_usd) === null ? null : `${fineDollars(num(agent.cost_usd) as number)} (LiteLLM list price, not the estimate)`],
    ['exception', str(exception.exception_type) ? `${str(exception.exception_type)}: ${str(exception.exception_message) ?? ''}`.trim() : null],
  ];
  return facts.flatMap(([label, value]) => (value === null || value === undefined || value === '' ? [] : [{ label, value: typeof value === 'number' ? whole(value) : value }]));
}

/** A trial's tokens as its agent_result says them (input includes cached); a negative amount is the cell's problem, unknown here. */
function usageOf(result: JsonObject): UnitTokens | null {
  const agent = obj(result.agent_result);
  const count = (field: string) => {
    const n = num(agent[field]);
    return n !== null && n >= 0 ? n : null;
  };
  const usage = { input: count('n_input_tokens'), cached: count('n_cache_tokens'), output: count('n_output_tokens') };
  return usage.input === null && usage.output === null ? null : usage;
}

/**
 * What the cell view shows: a row per trial folder, from the results the summary read already parsed. A
 * folder not `counted` (a copy of a trial another holds) and a trial given with two outcomes are `repeated`,
 * not scored, as the job's units have them.
 */
export function harborDetail(job: JsonObject, trials: Trial[], counted: readonly EndedTrial[]): DetailRead {
  const rows: EpisodeRow[] = [];
  const kept = new Map(counted.map((t) => [t.dir, t]));
  for (const { dir, result } of trials) {
    if (!result) {
      rows.push({ id: dir, status: 'running', success: null, scored: false, toolCalls: null, actions: null, wallS: null, t: null, note: null, hasEvents: false, files: [`${dir}/trial.log`] });
      continue;
    }
    const started = timestampMs(result.started_at);
    const finished = timestampMs(result.finished_at);
    const exception = obj(result.exception_info);
    const repeated = !kept.has(dir) || kept.get(dir)?.repeated === true;
    rows.push({
      facts: trialFacts(result, started, finished),
      files: [`${dir}/trial.log`, ...(exception.exception_type ? [`${dir}/exception.txt`] : []), `${dir}/verifier/test-stdout.txt`],
      id: dir,
      status: repeated ? 'repeated' : exception.exception_type ? 'error' : 'ended',
      success: repeated ? null : trialSucceeded(result),
      scored: !repeated,
      toolCalls: null,
      actions: null,
      wallS: started !== null && finished !== null ? (finished - started) / 1000 : null,
      t: finished,
      usage: usageOf(result),
      note: [kept.has(dir) ? null : 'a copy of a trial another folder holds: not counted', str(result.task_name), str(exception.exception_type), num(obj(obj(result.verifier_result).rewards).reward) === null ? null : `reward ${num(obj(obj(result.verifier_result).rewards).reward)}`]
        .filter(Boolean)
        .join(' · '),
      hasEvents: false,
    });
  }
  rows.sort((a, b) => (a.t ?? Infinity) - (b.t ?? Infinity));
  return { episodes: rows, versions: [], vram: [], startedAt: timestampMs(job.started_at), episodeBudget: null, frameSources: [], logStream: null, otherBudgets: [], tables: [], programs: [] };
}

/** Harbor writes JSON files, not event logs: trials appear in the episodes table as they end. */
export async function harborEventLogs(): Promise<EventLog[]> {
  return [];
}
