import { harborDetail, harborEventLogs } from './detail';
import type { EpisodeUnit } from '../../shared/model';
import { baseCell, CellReading } from '../common/cell';
import type { JsonObject } from '../common/json';
import { num, obj, str, sumOrNull, timestampMs } from '../common/values';
import type { FormatAdapter } from '../types';
import { CONFIG_JSON, JOB_RESULT_JSON, TRIAL_RESULT_JSON } from './files';

export interface Trial {
  dir: string;
  result: JsonObject;
}

/** A trial succeeds when its reward is at least 1; an ended trial without a reward fails. */
export function trialSucceeded(result: JsonObject): boolean {
  return (num(obj(obj(result.verifier_result).rewards).reward) ?? 0) >= 1;
}

/** Units pair across jobs by task name: the k-th attempt of a task (by started_at) is `task#k` for k > 1. */
export function trialUnits(trials: Trial[]): EpisodeUnit[] {
  const ordered = [...trials].sort(
    (a, b) => (timestampMs(a.result.started_at) ?? 0) - (timestampMs(b.result.started_at) ?? 0) || a.dir.localeCompare(b.dir),
  );
  const attempts = new Map<string, number>();
  return ordered.map(({ dir, result }) => {
    const task = str(result.task_name) ?? dir.replace(/__[^_]+$/, '');
    const k = (attempts.get(task) ?? 0) + 1;
    attempts.set(task, k);
    const errored = obj(result.exception_info).exception_type !== undefined;
    return { id: k > 1 ? `${task}#${k}` : task, status: errored ? 'error' : 'ended', success: trialSucceeded(result), scored: true };
  });
}

export const harborJob: FormatAdapter = {
  format: 'harbor-job',
  detail: harborDetail,
  eventLogs: harborEventLogs,
  async read(dir, ctx) {
    const r = new CellReading(dir, ctx);
    const config = (await r.json('config.json', CONFIG_JSON)) ?? {};
    const job = await r.json('result.json', JOB_RESULT_JSON);
    await r.stat('job.log');

    const trialDirs = (await r.list('.')).filter((e) => e.kind === 'dir').map((e) => e.name);
    const trials: Trial[] = [];
    const models = new Set<string>();
    const agents = new Set<string>();
    for (const name of trialDirs) {
      const trialConfig = await r.stat(`${name}/config.json`);
      if (!trialConfig) continue;
      const result = await r.json(`${name}/result.json`, TRIAL_RESULT_JSON);
      if (!result) continue;
      trials.push({ dir: name, result });
      const info = obj(result.agent_info);
      const model = str(obj(info.model_info).name);
      if (model) models.add(model);
      const agent = str(info.name);
      if (agent) agents.add(agent);
    }

    const cell = baseCell(dir, 'harbor-job', ctx, str(config.job_name) ?? undefined);
    const stats = obj(job?.stats);
    const total = num(job?.n_total_trials);
    // Legacy job files count errors as n_errors.
    const errored = num(stats.n_errored_trials) ?? num(stats.n_errors);
    if (errored) r.problems.push({ file: 'result.json', message: `${errored} trial${errored === 1 ? '' : 's'} errored (runner said)` });
    cell.budget = { unit: 'trials', used: trials.length, total };
    const units = trialUnits(trials);
    const successes = units.filter((u) => u.success).length;
    cell.episodes = { planned: total, ended: units.length, scored: units.length, excluded: 0, successes };
    cell.success_rate = units.length ? successes / units.length : null;

    const results = trials.map((t) => obj(t.result.agent_result));
    const input = sumOrNull(results.map((a) => num(a.n_input_tokens)));
    const cached = sumOrNull(results.map((a) => num(a.n_cache_tokens)));
    cell.tokens = { input, cached_input: cached, output: sumOrNull(results.map((a) => num(a.n_output_tokens))) };
    cell.cost_usd_estimate = sumOrNull(results.map((a) => num(a.cost_usd)));

    const finished = job?.finished_at !== undefined && job?.finished_at !== null;
    cell.state = finished ? 'finished' : r.recent() ? 'running' : 'stale';
    cell.problems = r.problems;
    return {
      cell,
      labels: { harness: [...agents].join(', ') || null, model: [...models].join(', ') || null, condition: null, effort: null },
      changedAt: r.changedAt,
      units,
    };
  },
};
