import type { EpisodeRow } from '../../shared/cell-detail';
import type { JsonObject } from '../common/json';
import { num, obj, str, timestampMs } from '../common/values';
import type { DetailRead, EventLog } from '../types';
import { trialSucceeded, type Trial } from './trials';

/** What the cell view shows: a row per trial, from the results the summary read already parsed. */
export function harborDetail(job: JsonObject, trials: Trial[]): DetailRead {
  const rows: EpisodeRow[] = [];
  for (const { dir, result } of trials) {
    if (!result) {
      rows.push({ id: dir, status: 'running', success: null, scored: false, toolCalls: null, actions: null, wallS: null, t: null, note: null, hasEvents: false });
      continue;
    }
    const started = timestampMs(result.started_at);
    const finished = timestampMs(result.finished_at);
    const exception = obj(result.exception_info);
    rows.push({
      id: dir,
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
  return { episodes: rows, versions: [], vram: [], startedAt: timestampMs(job.started_at), episodeBudget: null, frameSources: [], logStream: null, otherBudgets: [], tables: [], programs: [] };
}

/** Harbor writes JSON files, not event logs: trials appear in the episodes table as they end. */
export async function harborEventLogs(): Promise<EventLog[]> {
  return [];
}
