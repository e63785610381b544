import { codingAgentDetail, codingAgentEventLogs } from './detail';
import { obj, arr, num, str } from '../common/values';
import { baseCell, CellReading, judgeBoard } from '../common/cell';
import { CODING_AGENT_BOARD, codingAgentDepartures, STD_V2 } from './board';
import { type Problem, problem } from '../../shared/model';
import type { FormatAdapter } from '../types';
import { endedUnits, plannedEpisodes, unplanned } from './score';
import { RUN_JSON, SUMMARY_JSON } from './files';
import { episodeEnd } from './episode-end';

const RATE_TOLERANCE = 1e-6;

function sameRate(a: number, b: number): boolean {
  return Math.abs(a - b) <= RATE_TOLERANCE;
}

export const codingAgent: FormatAdapter = {
  format: 'coding-agent',
  pairing: { unit: 'episode', units: 'coding-agent episodes' },
  events: 'coding-agent trajectories',
  eventLogs: codingAgentEventLogs,
  capabilities: {
    episodeStreams: { framesFolder: (episode) => `episodes/${episode.padStart(4, '0')}/frames` },
    exclusions: true,
    vram: { file: 'vram.jsonl' },
    quiet: /^episodes\/\d+\/frames(\/|$)/,
    board: { rule: CODING_AGENT_BOARD },
  },
  async read(dir, ctx, options) {
    const r = new CellReading(dir, ctx);
    const runJson = await r.json('run.json', RUN_JSON);
    const run = runJson ?? {};
    const summary = await r.json('summary.json', SUMMARY_JSON);
    const drain = await r.stat('DRAIN');
    await Promise.all(['driver.log', 'vram.jsonl'].map((f) => r.stat(f)));

    const name = str(run.run) ?? str(summary?.run) ?? undefined;
    const cell = baseCell(dir, 'coding-agent', ctx, name);
    judgeBoard(cell, codingAgentDepartures(cell.name, runJson));
    const labels = obj(run.cell);

    // The newest episode's trajectory is where a live run writes; its mtime says whether the run moves.
    const episodeDirs = (await r.list('episodes')).filter((e) => e.kind === 'dir').map((e) => e.name).sort();
    const newest = episodeDirs.at(-1);
    const trajectory = newest ? `episodes/${newest}/trajectory.jsonl` : null;
    const last = trajectory ? await r.stat(trajectory) : null;

    const integrity: Problem[] = [];
    const units = endedUnits(summary, integrity);
    // The plan summary.json states, else run.json's.
    const planFrom = Array.isArray(summary?.planned) ? { file: 'summary.json', field: 'planned', list: summary.planned } : { file: 'run.json', field: 'protocol.episodes', list: arr(obj(run.protocol).episodes) };
    const plan = plannedEpisodes(planFrom.list, planFrom.file, planFrom.field, integrity);
    unplanned(units, plan, `${planFrom.file} ${planFrom.field}`, integrity);

    const scored = units.filter((u) => u.scored);
    const successes = scored.filter((u) => u.success).length;
    cell.episodes = {
      planned: plan.size || null,
      ended: units.length,
      scored: scored.length,
      excluded: units.length - scored.length,
      successes,
    };
    cell.budget = { unit: 'episodes', used: units.length, total: plan.size || null };
    cell.success_rate = scored.length ? successes / scored.length : null;

    const aggregate = obj(summary?.aggregate);
    const said = { rate: num(aggregate.success_rate), scored: num(aggregate.scored), excluded: num(aggregate.excluded) };
    const mismatches = [
      said.rate !== null && cell.success_rate !== null && !sameRate(said.rate, cell.success_rate)
        ? `success_rate ${said.rate} (board scoring gives ${cell.success_rate.toFixed(4)})`
        : null,
      said.scored !== null && said.scored !== scored.length ? `scored ${said.scored} (board scoring gives ${scored.length})` : null,
      said.excluded !== null && said.excluded !== cell.episodes.excluded ? `excluded ${said.excluded} (board scoring gives ${cell.episodes.excluded})` : null,
    ].filter((m) => m !== null);
    if (mismatches.length) r.problems.push(problem('summary.json', `runner's aggregate disagrees with board scoring: ${mismatches.join('; ')}`, { severity: 'warning' }));

    // The newest episode, not yet in the summary's, is the one running: its trajectory's end says its pause and whether it is stuck.
    const runningId = newest !== undefined && !(String(Number(newest)) in obj(summary?.episodes)) ? String(Number(newest)) : null;
    const end = trajectory && last?.kind === 'file' && summary?.finished !== true ? await episodeEnd(r, trajectory, last.size, runningId ?? String(Number(newest)), last.mtimeMs) : null;
    const paused = end?.pausedUntil ?? null;
    cell.state = summary?.finished === true ? 'finished' : drain ? 'draining' : paused !== null && paused > r.ctx.now ? 'throttled' : r.recent() ? 'running' : 'stale';
    const detail = options?.detail ? await codingAgentDetail(r, run, summary ?? {}, units, episodeDirs) : undefined;
    cell.problems = r.problems;
    return {
      ...(detail ? { detail } : {}),
      cell,
      labels: { harness: str(labels.harness), model: str(labels.model), condition: str(labels.condition), effort: str(labels.effort) },
      changedAt: r.changedAt,
      units,
      integrity,
      vramPeakMib: num(summary?.vram_peak_mib),
      pausedUntil: paused,
      running: end && runningId !== null ? [end.running] : [],
      boardName: `coding-agent ${str(obj(run.protocol).name) ?? STD_V2.name}`,
    };
  },
};
