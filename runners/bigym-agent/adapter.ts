import { bigymDetail, bigymEventLogs } from './detail';
import { problem } from '../../shared/model';
import { baseCell, CellReading, judgeBoard } from '../common/cell';
import { BIGYM_BOARD, bigymDepartures } from './board';
import { arr, num, obj, str } from '../common/values';
import { isRecent, type AuditFinding, type FormatAdapter } from '../types';
import { readEvaluation, readVersions, type Evaluation } from './evaluation';
import { append } from '../../shared/arrays';
import { RUN_JSON } from './files';
import { amount } from '../common/integrity';
import { bigymVersions } from './versions';
import { auditReader, auditTable, TRANSCRIPT } from './audit';

/** A reset costs this many steps (the controller warm-up) on top of the episode's own. */
export const RESET_STEPS = 200;

export const bigymAgent: FormatAdapter = {
  format: 'bigym-agent',
  pairing: { unit: 'seed', units: "the bigym submission's evaluation seeds", side: "CELL@vNNN a bigym policy version's evaluation" },
  events: 'the bigym ledger and evaluation progress',
  eventLogs: bigymEventLogs,
  capabilities: {
    versions: bigymVersions,
    quiet: /^(dev|replays)(\/|$)/,
    // The interface is the row's condition: tools is the ablation, on its own row, never compared with strict.
    board: { rule: BIGYM_BOARD, apart: ['condition'] },
    audit: { read: (dir, ctx) => new CellReading(dir, ctx).jsonl(TRANSCRIPT, auditReader(dir)) },
  },
  async read(dir, ctx, options) {
    const r = new CellReading(dir, ctx);
    const run = (await r.json('run.json', RUN_JSON)) ?? {};
    const sandbox = await r.json('sandbox_config.json');
    const ledger = await r.jsonl('ledger.jsonl');
    // What the transcript names outside the sandbox, kept up as it grows: shown with the cell's detail.
    let audit: readonly AuditFinding[] = [];
    if (options?.detail) audit = await r.jsonl(TRANSCRIPT, auditReader(dir));
    else await r.stat(TRANSCRIPT);
    const versions = await readVersions(r);
    const evalDirs = (await r.list('eval')).filter((e) => e.kind === 'dir' && /^v\d{3}$/.test(e.name)).map((e) => e.name).sort();
    const evaluations = await Promise.all(evalDirs.map((v) => readEvaluation(v, r)));

    const cell = baseCell(dir, 'bigym-agent', ctx);
    const spent = ledger.reduce((sum, rec) => sum + RESET_STEPS + (num(rec.value.steps) ?? 0), 0);
    const runnerSaid = num(run.steps_used);
    if (runnerSaid !== null && runnerSaid !== spent) {
      r.problems.push(problem('ledger.jsonl', `ledger adds up to ${spent} steps (200 a reset plus episode steps); run.json says steps_used ${runnerSaid}`, { severity: 'warning' }));
    }
    cell.budget = { unit: 'steps', used: spent, total: num(run.budget_steps) };

    const box = obj(sandbox);
    if (box.tier === 'privileged' || box.allow_external_cameras === true) {
      const why = box.tier === 'privileged' ? 'tier privileged' : 'external cameras allowed';
      r.problems.push(problem('sandbox_config.json', `not a benchmark result: ${why}`, { severity: 'warning' }));
    }

    const submission = versions.at(-1);
    const submitted = evaluations.find((e) => e.version === submission);
    for (const evaluation of evaluations) {
      const summary = evaluation.summary;
      if (!summary) continue;
      const rejected = arr(summary.rejected);
      if (rejected.length) {
        const why = `${evaluation.version} rejected, scores 0: the policy imported the simulator (${rejected.map(String).join(', ')})`;
        r.problems.push(problem(`eval/${evaluation.version}/summary.json`, why, { severity: 'warning' }));
      }
      if (obj(summary.spot_check).identical === false) {
        r.problems.push(problem(`eval/${evaluation.version}/summary.json`, `${evaluation.version} failed the spot check: reruns differ, the policy is not deterministic`, { severity: 'warning' }));
      }
    }

    judgeBoard(cell, bigymDepartures(submission, submitted?.summary ?? null, sandbox));
    // Every version's summary is held to the integrity rules; the submission's breaks take the cell off the board.
    for (const evaluation of evaluations) if (evaluation !== submitted) append(r.problems, evaluation.scored.problems);
    const { units, problems: integrity } = submitted?.scored ?? { units: [], problems: [] };
    const scored = units.filter((u) => u.scored);
    const planned = num(submitted?.summary?.n_episodes);
    cell.episodes = {
      planned: planned ?? (units.length || null),
      ended: submitted?.summary ? units.length : (submitted?.progressLines ?? 0),
      scored: scored.length,
      excluded: units.length - scored.length,
      successes: scored.filter((u) => u.success).length,
    };
    if (submitted?.summary) cell.success_rate = submitted.scored.rate;

    const running = run.status === 'running';
    const pending = evaluations.filter((e) => !e.summary);
    const recentlyChanged = (e: Evaluation) => isRecent(e.changedAt, ctx.now);
    // While the session runs it is running, whatever its versions' evaluations say (each is that version's
    // score, not the cell's end); a session is void when it ends without a policy, or when the runner says so.
    if (running) cell.state = r.recent() ? 'running' : 'stale';
    else if (run.verdict === 'void' || versions.length === 0) cell.state = 'void';
    else if (run.status === 'interrupted') cell.state = 'interrupted';
    else if (submitted?.summary) cell.state = 'scored';
    else if (pending.some(recentlyChanged)) cell.state = 'evaluating';
    else if (pending.length) cell.state = 'eval_failed';
    else cell.state = 'unscored';
    if (run.status === 'interrupted' && submitted?.summary) r.problems.push(problem('run.json', `interrupted, and still scored: ${submission}'s evaluation summary exists`, { severity: 'warning' }));

    const tokens = obj(run.tokens);
    const counts = (field: keyof typeof cell.tokens) => amount(tokens[field], 'run.json', `tokens.${field}`, integrity);
    cell.tokens = { input: counts('input'), cached_input: counts('cached_input'), output: counts('output'), reasoning: counts('reasoning') };
    cell.cost_usd_billed = amount(obj(run.cost).billed_usd, 'run.json', 'cost.billed_usd', integrity);
    const detail = options?.detail ? { ...(await bigymDetail(r, run, ledger, versions, evaluations)), tables: [auditTable(audit)] } : undefined;
    cell.problems = r.problems;
    return {
      ...(detail ? { detail } : {}),
      cell,
      labels: { harness: str(run.harness), model: str(run.model), condition: str(run.interface), effort: str(run.effort) },
      changedAt: r.changedAt,
      units,
      integrity,
      evaluatedVersions: evaluations.filter((e) => e.summary).map((e) => e.version),
      versionScores: Object.fromEntries(evaluations.flatMap((e) => (e.summary ? [[e.version, e.scored.rate]] : []))),
      policyVersions: versions,
      boardName: `bigym-agent ${cell.name}`,
      runnerCostUsd: amount(obj(run.cost).estimate_usd, 'run.json', 'cost.estimate_usd', integrity),
    };
  },
};
