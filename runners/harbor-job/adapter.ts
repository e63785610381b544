import { basename } from 'node:path';
import { readAtifTranscript } from './atif';
import { amount } from '../common/integrity';
import { openRouterBilled } from './billing';
import { harborDetail, harborEventLogs } from './detail';
import { problem } from '../../shared/model';
import { baseCell, CellReading } from '../common/cell';
import { num, obj, str, sumOrNull } from '../common/values';
import type { FormatAdapter } from '../types';
import { CONFIG_JSON, JOB_RESULT_JSON, TRIAL_RESULT_JSON } from './files';
import { oneTrialEach, trialUnits, type Trial } from './trials';
import { runningTrial } from './running';
import { counted } from '../../shared/counts';

export const harborJob: FormatAdapter = {
  format: 'harbor-job',
  pairing: { unit: 'trial', units: 'Harbor tasks (task#k for the k-th attempt)' },
  eventLogs: harborEventLogs,
  // A trial opens as a transcript: its ATIF trajectory (agent/trajectory.json).
  capabilities: { transcripts: { read: readAtifTranscript } },
  async read(dir, ctx, options) {
    const r = new CellReading(dir, ctx);
    const config = (await r.json('config.json', CONFIG_JSON)) ?? {};
    const job = await r.json('result.json', JOB_RESULT_JSON);
    await r.stat('job.log');

    const trialDirs = (await r.list('.')).filter((e) => e.kind === 'dir').map((e) => e.name);
    const trials: Trial[] = [];
    const models = new Set<string>();
    const agents = new Set<string>();
    // What a trial's task names of its benchmark: Harbor's dataset source, and the task's folder (seed 001's `task_dir`).
    const benchmarks = new Set<string>();
    for (const name of trialDirs) {
      const trialConfig = await r.stat(`${name}/config.json`);
      if (!trialConfig) continue;
      const result = await r.json(`${name}/result.json`, TRIAL_RESULT_JSON);
      trials.push({ dir: name, result });
      if (!result) continue;
      const info = obj(result.agent_info);
      const model = str(obj(info.model_info).name);
      if (model) models.add(model);
      const agent = str(info.name);
      if (agent) agents.add(agent);
      const task = obj(obj(result.config).task);
      for (const name of [str(task.source) ?? str(result.source), str(task.path)?.split('/').filter(Boolean).at(-1)]) if (name) benchmarks.add(name);
    }

    const cell = baseCell(dir, 'harbor-job', ctx, str(config.job_name) ?? undefined);
    const stats = obj(job?.stats);
    const total = num(job?.n_total_trials);
    // Legacy job files count errors as n_errors.
    const errored = num(stats.n_errored_trials) ?? num(stats.n_errors);
    if (errored) r.problems.push(problem('result.json', `${counted(errored, 'trial')} errored (runner said)`));
    const { ended, integrity } = oneTrialEach(trials, basename(dir));
    cell.budget = { unit: 'trials', used: ended.length, total };
    const units = trialUnits(ended);
    const scored = units.filter((u) => u.scored);
    const successes = scored.filter((u) => u.success).length;
    cell.episodes = { planned: total, ended: units.length, scored: scored.length, excluded: units.length - scored.length, successes };
    cell.success_rate = scored.length ? successes / scored.length : null;
    const rewards = ended.flatMap((t) => (t.repeated ? [] : (num(obj(obj(t.result.verifier_result).rewards).reward) ?? [])));
    cell.reward = { mean: rewards.length ? rewards.reduce((a, b) => a + b, 0) / rewards.length : null, n: rewards.length };

    // A sum over the trials of an amount of agent_result: a negative one breaks the integrity rules, left out.
    const summed = (field: string) => sumOrNull(ended.map((t) => amount(obj(t.result.agent_result)[field], `${t.dir}/result.json`, `agent_result.${field}`, integrity)));
    cell.tokens = { input: summed('n_input_tokens'), cached_input: summed('n_cache_tokens'), output: summed('n_output_tokens'), reasoning: null };
    const runnerCostUsd = summed('cost_usd');
    // A copied trial's charges are its original's: each trial's counted once.
    const once = new Set(ended.map((t) => t.dir));
    cell.cost_usd_billed = await openRouterBilled(r, trials.filter((t) => !t.result || once.has(t.dir)).map((t) => t.dir), integrity);

    const finished = job?.finished_at !== undefined && job?.finished_at !== null;
    // Trials without a result while the job has not finished are running: each may be stuck or looping.
    const running = finished ? [] : await Promise.all(trials.filter((t) => !t.result).map((t) => runningTrial(r, t.dir)));
    cell.state = finished ? 'finished' : r.recent() ? 'running' : 'stale';
    cell.problems = r.problems;
    return {
      ...(options?.detail ? { detail: harborDetail(job ?? {}, trials, ended) } : {}),
      cell,
      labels: { harness: [...agents].join(', ') || null, model: [...models].join(', ') || null, condition: null, effort: null },
      changedAt: r.changedAt,
      units,
      running,
      benchmarks: [...benchmarks].sort(),
      // Harbor's agent_result.cost_usd is LiteLLM's list-price guess (seed 001): what the runner said, nothing more.
      runnerCostUsd,
      integrity,
    };
  },
};
