import type { EpisodeRow } from '../../shared/cell-detail';
import { CellReading } from '../common/cell';
import { num, obj, str, timestampMs } from '../common/values';
import type { DetailRead, EventLog, ReadContext } from '../types';
import { trialSucceeded } from './adapter';
import { JOB_RESULT_JSON, TRIAL_RESULT_JSON } from './files';

export async function harborDetail(dir: string, ctx: ReadContext): Promise<DetailRead> {
  const r = new CellReading(dir, ctx);
  const job = (await r.json('result.json', JOB_RESULT_JSON)) ?? {};
  const rows: EpisodeRow[] = [];
  for (const entry of await r.list('.')) {
    if (entry.kind !== 'dir' || !(await r.stat(`${entry.name}/config.json`))) continue;
    const result = await r.json(`${entry.name}/result.json`, TRIAL_RESULT_JSON);
    if (!result) {
      rows.push({ id: entry.name, status: 'running', success: null, scored: false, toolCalls: null, actions: null, wallS: null, t: null, note: null, hasEvents: false });
      continue;
    }
    const started = timestampMs(result.started_at);
    const finished = timestampMs(result.finished_at);
    const exception = obj(result.exception_info);
    rows.push({
      id: entry.name,
      status: exception.exception_type ? 'error' : 'ended',
      success: trialSucceeded(result),
      scored: true,
      toolCalls: null,
      actions: null,
      wallS: started !== null && finished !== null ? (finished - started) / 1000 : null,
      t: finished,
      note: [str(result.task_name), str(exception.exception_type), num(obj(obj(result.verifier_result).rewards).reward) === null ? null : `reward ${num(obj(obj(result.verifier_result).rewards).reward)}`]
        .filter(Boolean)
        .join(' · '),
      hasEvents: false,
    });
  }
  rows.sort((a, b) => (a.t ?? Infinity) - (b.t ?? Infinity));
  return { episodes: rows, versions: [], vram: [], startedAt: timestampMs(job.started_at), episodeBudget: null, frameSources: [], logStream: null, otherBudgets: [], problems: r.problems };
}

/** Harbor writes JSON files, not event logs: trials appear in the episodes table as they end. */
export async function harborEventLogs(): Promise<EventLog[]> {
  return [];
}
