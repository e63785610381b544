import { evopolicygymDetail, evopolicygymEventLogs } from './detail';
import { problem, type EpisodeUnit } from '../../shared/model';
import { baseCell, CellReading } from '../common/cell';
import { arr, bool, num, obj, str } from '../common/values';
import type { JsonlRecord } from '../common/jsonl';
import type { FormatAdapter } from '../types';
import { oneOutcome, statedRate } from '../common/integrity';
import { RUN_JSON } from './files';

/** Episodes charged by ended submissions, and reserved by those in flight (started, not yet completed or failed). */
export function budgetOf(events: readonly JsonlRecord[]): { charged: number; reserved: number } {
  let charged = 0;
  const inFlight = new Map<string, number>();
  for (const { value } of events) {
    const id = str(value.submission);
    if (value.type === 'submission_started' && id) inFlight.set(id, arr(value.episodes).length);
    else if (value.type === 'submission_completed' || value.type === 'submission_failed') {
      charged += num(value.charged) ?? 0;
      if (id) inFlight.delete(id);
    }
  }
  return { charged, reserved: [...inFlight.values()].reduce((a, b) => a + b, 0) };
}

export const evopolicygym: FormatAdapter = {
  format: 'evopolicygym',
  pairing: { units: "the evopolicygym assessment's episodes" },
  eventLogs: evopolicygymEventLogs,
  capabilities: {},
  async read(dir, ctx, options) {
    const r = new CellReading(dir, ctx);
    const run = (await r.json('run.json', RUN_JSON)) ?? {};
    const events = await r.jsonl('events.jsonl');
    await r.stat('agent/stdout.jsonl');
    const config = obj(run.config);
    const agent = obj(run.agent);

    const { charged, reserved } = budgetOf(events);
    const cell = baseCell(dir, 'evopolicygym', ctx);
    // A submission in flight holds its episodes: the host reserved them, and does not refund them once it evaluates.
    cell.budget = { unit: 'episodes', used: charged + reserved, total: num(config.episode_budget) };

    const assessment = obj(run.assessment);
    const unitOf = (raw: unknown): EpisodeUnit | null => {
      const e = obj(raw);
      const index = num(e.index);
      const success = bool(e.success);
      return index === null ? null : { id: String(index), status: success === null ? 'unscored' : 'scored', success, scored: success !== null };
    };
    const { units, problems: repeats } = oneOutcome(arr(assessment.episodes), unitOf, (i) => `assessment.episodes[${i}]`, 'run.json', 'episode');
    const integrity = [...repeats, ...statedRate(assessment.success_rate, units, 'run.json', 'assessment.success_rate')];
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
    if (terminal === 'error') r.problems.push(problem('run.json', 'run ended with terminal_reason error'));
    cell.state = terminal ? 'finished' : r.recent() ? 'running' : 'stale';
    const detail = options?.detail ? await evopolicygymDetail(r, run, events) : undefined;
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
