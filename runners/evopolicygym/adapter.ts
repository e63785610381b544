import { evopolicygymDetail, evopolicygymEventLogs } from './detail';
import { problem, type EpisodeUnit, type Problem } from '../../shared/model';
import { append } from '../../shared/arrays';
import { baseCell, CellReading } from '../common/cell';
import { arr, num, obj, str, timestampMs } from '../common/values';
import type { JsonObject } from '../common/json';
import type { FormatAdapter } from '../types';
import { judgedUnits, statedRate } from '../common/integrity';
import { budgetOf, submissionsOf } from './submissions';
import { RUN_JSON } from './files';

const RUN = 'run.json';

/** An assessment entry's episode index: a whole number, not negative; null for anything else. */
const indexOf = (entry: unknown) => {
  const index = num(obj(entry).index);
  return index !== null && Number.isInteger(index) && index >= 0 ? index : null;
};

/**
 * The assessment's episodes as McNemar units, each index once (oneOutcome), and what breaks the integrity
 * rules in it: an entry with no episode index (not counted), a success that is not true or false (left
 * unscored), a stated success_rate its episodes do not give.
 */
function assessed(assessment: JsonObject): { units: EpisodeUnit[]; integrity: Problem[] } {
  const where = { file: RUN, placeOf: (i: number) => `assessment.episodes[${i}]`, noun: 'episode', id: 'an episode index (a whole number)', of: ' of the assessment' };
  const { units, problems } = judgedUnits(arr(assessment.episodes), indexOf, where);
  return { units, integrity: [...problems, ...statedRate(assessment.success_rate, units, RUN, 'assessment.success_rate')] };
}

export const evopolicygym: FormatAdapter = {
  format: 'evopolicygym',
  pairing: { unit: 'episode', units: "the evopolicygym assessment's episodes" },
  events: 'the evopolicygym event log',
  eventLogs: evopolicygymEventLogs,
  capabilities: {},
  async read(dir, ctx, options) {
    const r = new CellReading(dir, ctx);
    const run = (await r.json(RUN, RUN_JSON)) ?? {};
    const events = await r.jsonl('events.jsonl');
    await r.stat('agent/stdout.jsonl');
    const config = obj(run.config);
    const agent = obj(run.agent);

    const { submissions, problems: logProblems, integrity: charges } = submissionsOf(events);
    append(r.problems, logProblems);
    const { charged, reserved } = budgetOf(submissions);
    const cell = baseCell(dir, 'evopolicygym', ctx);
    // A submission in flight holds its episodes: the host reserved them, and does not refund them once it evaluates.
    cell.budget = { unit: 'episodes', used: charged + reserved, total: num(config.episode_budget) };

    const assessment = assessed(obj(run.assessment));
    const { units } = assessment;
    const integrity = [...charges, ...assessment.integrity];
    const scored = units.filter((u) => u.scored);
    cell.episodes = {
      planned: units.length || null,
      ended: units.length,
      scored: scored.length,
      excluded: units.length - scored.length,
      successes: scored.filter((u) => u.success).length,
    };
    cell.success_rate = scored.length ? cell.episodes.successes / scored.length : null;

    const terminal = str(run.terminal_reason);
    if (terminal === 'error') r.problems.push(problem(RUN, 'run ended with terminal_reason error'));
    cell.state = terminal ? 'finished' : r.recent() ? 'running' : 'stale';
    const detail = options?.detail ? await evopolicygymDetail(r, run, submissions, timestampMs(events[0]?.value.t) ?? timestampMs(run.started_at)) : undefined;
    cell.problems = r.problems;
    return {
      ...(detail ? { detail } : {}),
      cell,
      labels: { harness: str(agent.provider), model: str(agent.model), condition: str(config.split), effort: str(agent.effort) },
      changedAt: r.changedAt,
      units,
      integrity,
      benchmarks: str(run.benchmark) ? [str(run.benchmark) as string] : [],
    };
  },
};
