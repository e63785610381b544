import { bigymDetail, bigymEventLogs } from './detail';
import type { EpisodeUnit } from '../../shared/model';
import { baseCell, CellReading } from '../common/cell';
import type { JsonObject } from '../common/json';
import { arr, bool, num, obj, str } from '../common/values';
import { isRecent, type FormatAdapter, type ReadContext } from '../types';
import { EVAL_SUMMARY_JSON, RUN_JSON } from './files';

/** A reset costs this many steps (the controller warm-up) on top of the episode's own. */
export const RESET_STEPS = 200;
export const VERSION_FILE = /^(v\d{3})\.py$/;

export interface Evaluation {
  version: string;
  summary: JsonObject | null;
  progressLines: number;
  changedAt: number | null;
}

export async function readVersions(r: CellReading): Promise<string[]> {
  return (await r.list('policies'))
    .map((e) => (e.kind === 'file' ? VERSION_FILE.exec(e.name)?.[1] : undefined))
    .filter((v): v is string => v !== undefined)
    .sort();
}

export async function readEvaluation(dir: string, version: string, ctx: ReadContext, r: CellReading): Promise<Evaluation> {
  const own = new CellReading(dir, ctx);
  const summary = await own.json(`eval/${version}/summary.json`, EVAL_SUMMARY_JSON);
  const progress = await own.jsonl(`eval/${version}/progress.jsonl`);
  r.problems.push(...own.problems);
  if (own.changedAt !== null) await r.stat(`eval/${version}`);
  return { version, summary, progressLines: progress.length, changedAt: own.changedAt };
}

/** The evaluation episodes of a version, as McNemar units; a rejected policy scores 0 on every one. */
export function evaluationUnits(summary: JsonObject): EpisodeUnit[] {
  const rejected = arr(summary.rejected).length > 0;
  return arr(summary.episodes).flatMap((raw) => {
    const e = obj(raw);
    const seed = num(e.seed);
    if (seed === null) return [];
    const success = rejected ? false : bool(e.success) === true;
    return [{ id: String(seed), status: rejected ? 'rejected' : 'scored', success, scored: true }];
  });
}

export const bigymAgent: FormatAdapter = {
  format: 'bigym-agent',
  detail: bigymDetail,
  eventLogs: bigymEventLogs,
  async read(dir, ctx) {
    const r = new CellReading(dir, ctx);
    const run = (await r.json('run.json', RUN_JSON)) ?? {};
    const sandbox = await r.json('sandbox_config.json');
    const ledger = await r.jsonl('ledger.jsonl');
    await r.stat('transcript.md');
    const versions = await readVersions(r);
    const evalDirs = (await r.list('eval')).filter((e) => e.kind === 'dir' && /^v\d{3}$/.test(e.name)).map((e) => e.name).sort();
    const evaluations = await Promise.all(evalDirs.map((v) => readEvaluation(dir, v, ctx, r)));

    const cell = baseCell(dir, 'bigym-agent', ctx);
    const spent = ledger.reduce((sum, rec) => sum + RESET_STEPS + (num(rec.value.steps) ?? 0), 0);
    const runnerSaid = num(run.steps_used);
    if (runnerSaid !== null && runnerSaid !== spent) {
      r.problems.push({ file: 'ledger.jsonl', message: `ledger adds up to ${spent} steps (200 a reset plus episode steps); run.json says steps_used ${runnerSaid}` });
    }
    cell.budget = { unit: 'steps', used: spent, total: num(run.budget_steps) };

    const box = obj(sandbox);
    if (box.tier === 'privileged' || box.allow_external_cameras === true) {
      const why = box.tier === 'privileged' ? 'tier privileged' : 'external cameras allowed';
      r.problems.push({ file: 'sandbox_config.json', message: `not a benchmark result: ${why}` });
    }

    const submission = versions.at(-1);
    const submitted = evaluations.find((e) => e.version === submission);
    for (const evaluation of evaluations) {
      const summary = evaluation.summary;
      if (!summary) continue;
      const rejected = arr(summary.rejected);
      if (rejected.length) {
        r.problems.push({
          file: `eval/${evaluation.version}/summary.json`,
          message: `${evaluation.version} rejected, scores 0: the policy imported the simulator (${rejected.map(String).join(', ')})`,
        });
      }
      if (obj(summary.spot_check).identical === false) {
        r.problems.push({ file: `eval/${evaluation.version}/summary.json`, message: `${evaluation.version} failed the spot check: reruns differ, the policy is not deterministic` });
      }
    }

    const units = submitted?.summary ? evaluationUnits(submitted.summary) : [];
    const successes = units.filter((u) => u.success).length;
    const planned = num(submitted?.summary?.n_episodes);
    cell.episodes = {
      planned: planned ?? (units.length || null),
      ended: submitted?.summary ? units.length : (submitted?.progressLines ?? 0),
      scored: units.length,
      excluded: 0,
      successes,
    };
    if (submitted?.summary) {
      cell.success_rate = arr(submitted.summary.rejected).length ? 0 : (num(submitted.summary.success_rate) ?? (units.length ? successes / units.length : null));
    }

    const running = run.status === 'running';
    const pending = evaluations.filter((e) => !e.summary);
    const recentlyChanged = (e: Evaluation) => isRecent(e.changedAt, ctx.now);
    if (versions.length === 0) cell.state = 'void';
    else if (run.status === 'interrupted') cell.state = 'interrupted';
    else if (submitted?.summary) cell.state = 'scored';
    else if (pending.some(recentlyChanged)) cell.state = 'evaluating';
    else if (!running && pending.length) cell.state = 'eval_failed';
    else if (running) cell.state = r.recent() ? 'running' : 'stale';
    else cell.state = 'finished';

    const tokens = obj(run.tokens);
    cell.tokens = { input: num(tokens.input), cached_input: num(tokens.cached_input), output: num(tokens.output) };
    cell.cost_usd_estimate = num(obj(run.cost).estimate_usd);
    cell.problems = r.problems;
    return {
      cell,
      labels: { harness: str(run.harness), model: str(run.model), condition: str(run.interface), effort: str(run.effort) },
      changedAt: r.changedAt,
      units,
      evaluatedVersions: evaluations.filter((e) => e.summary).map((e) => e.version),
      policyVersions: versions,
    };
  },
};

/** The evaluation units of one policy version, or null when it has no evaluation summary yet. */
export async function versionUnits(dir: string, version: string, ctx: ReadContext): Promise<EpisodeUnit[] | null> {
  const summary = await new CellReading(dir, ctx).json(`eval/${version}/summary.json`, EVAL_SUMMARY_JSON);
  return summary ? evaluationUnits(summary) : null;
}
