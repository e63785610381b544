import { basename, dirname } from 'node:path';
import { problem, type AgentRow, type EpisodeUnit } from '../../shared/model';
import { baseCell, judgeBoard } from '../common/cell';
import type { FormatAdapter } from '../types';
import { meanOf } from './reward-stats';
import { nemoDetail } from './detail';
import { nemoEventLogs } from './events';
import { collectionsIn, rolloutsOfSidecar } from './files';
import { readCollection } from './read';
import type { Collection } from './collection';
import { namedSome, type Noted } from '../common/integrity';
import { readTranscript } from './transcript';

export const NEMO_BOARD = "each agent of a collection on its environment (the collection's folder): its agent and model make its place";

/** One agent's figures: its units as it pairs them (rollouts and terminal failures), the units planned for it, its mean reward, its tokens. */
function agentRow(name: string, units: readonly EpisodeUnit[], c: Collection): AgentRow {
  const scored = units.filter((u) => u.scored);
  const successes = scored.filter((u) => u.success).length;
  const stats = c.byAgent.get(name);
  const models = [...(c.agentModels.get(name) ?? [])];
  const tokens = c.agentTokens.get(name);
  return {
    name,
    model: models.join(', ') || null,
    episodes: { planned: c.planned === null ? null : (c.agentPlans.get(name) ?? 0), ended: units.length, scored: scored.length, excluded: units.length - scored.length, successes },
    success_rate: scored.length ? successes / scored.length : null,
    reward: { mean: stats ? meanOf(stats) : null, n: stats?.n ?? 0 },
    tokens: { input: tokens?.input ?? null, cached_input: tokens?.cached ?? null, output: tokens?.output ?? null, reasoning: tokens?.reasoning ?? null },
  };
}

export const nemoGym: FormatAdapter = {
  format: 'nemo-gym',
  pairing: { unit: 'rollout', units: "a NeMo Gym collection's rollouts (<task>#<rollout>; <agent>/<task>#<rollout> when it runs several agents)", side: 'FILE@AGENT one agent of a NeMo Gym collection' },
  events: "a NeMo Gym collection's rollouts and failures (its unit and reward, never the conversation)",
  eventLogs: nemoEventLogs,
  capabilities: {
    fileCell: { what: 'a NeMo Gym rollouts file', cellsIn: collectionsIn, ownerOf: rolloutsOfSidecar },
    transcripts: { read: (path, unit, ctx) => readTranscript(path, unit, ctx) },
    board: { rule: NEMO_BOARD },
  },
  async read(path, ctx, options) {
    const { r, files, collection: c, collector, aggregateFile, checked } = await readCollection(path, ctx);
    const cell = baseCell(path, 'nemo-gym', ctx, files.stem);
    const total = c.planned;
    cell.budget = { unit: 'rollouts', used: c.done, total };
    cell.episodes = { planned: total, ended: c.done, scored: c.all.n, excluded: c.done - c.all.n, successes: c.all.successes };
    cell.success_rate = c.all.n ? c.all.successes / c.all.n : null;
    cell.reward = { mean: meanOf(c.all), n: c.all.n };
    cell.tokens = { input: c.tokens.input, cached_input: c.tokens.cached, output: c.tokens.output, reasoning: c.tokens.reasoning };

    const missing = c.planned ? c.missing : 0;
    const complete = c.planned !== null && missing === 0;
    cell.state = complete || aggregateFile ? 'finished' : r.recent() ? 'running' : 'stale';
    if (missing && cell.state !== 'running') {
      r.problems.push(problem(basename(files.inputs), `stopped with ${missing} of ${total} rollouts missing; a resume (resume_from_cache) would run them`, { severity: 'warning' }));
    }
    cell.problems = r.problems;
    const rollouts = basename(files.rollouts);
    const noted = (rows: Noted, what: string) => (rows.rows ? [problem(rollouts, `${namedSome(rows.first, 'rollout', { total: rows.rows })} ${what}`)] : []);
    const integrity = [...c.integrity, ...noted(c.unscored, 'without a numeric reward: not scored'), ...noted(c.unplanned, `of units ${basename(files.inputs)} does not plan`), ...noted(c.negative, 'with a negative token count: an amount cannot be negative; left out of every sum')];

    const agents = [...c.byAgent.keys()].filter((a) => a !== '');
    judgeBoard(cell, []);
    // A collection of several agents: each its own units (FILE@AGENT), figures and square on the board.
    const agentUnits: Record<string, EpisodeUnit[]> = {};
    if (agents.length > 1) for (const agent of agents) agentUnits[agent] = collector.units(agent);
    const agentRows = agents.length > 1 ? agents.map((agent) => agentRow(agent, agentUnits[agent] as EpisodeUnit[], c)) : [];
    return {
      ...(options?.detail ? { detail: nemoDetail(c, { rollouts: basename(files.rollouts), failures: basename(files.failures), inputs: basename(files.inputs) }, checked?.lines ?? [], aggregateFile) } : {}),
      cell,
      labels: { harness: agents.join(', ') || null, model: [...c.models].join(', ') || null, condition: null, effort: null },
      changedAt: r.changedAt,
      units: collector.units(),
      integrity,
      boardName: `nemo-gym ${basename(dirname(path))}`,
      ...(agents.length > 1 ? { agentUnits, agents: agentRows } : {}),
      ...(r.changedAt === null ? { gone: true as const } : {}),
    };
  },
};
