import type { EpisodeRow } from '../../shared/cell-detail';
import type { CellReading } from '../common/cell';
import type { JsonObject } from '../common/json';
import type { JsonlRecord } from '../common/jsonl';
import { arr, num, obj, str, timestampMs } from '../common/values';
import type { DetailRead, EventLog } from '../types';

/** What the cell view shows, from the files the summary read already parsed, and each submission's feedback. */
export async function evopolicygymDetail(r: CellReading, run: JsonObject, events: JsonlRecord[]): Promise<DetailRead> {
  const rows = new Map<string, EpisodeRow>();
  for (const { value } of events) {
    const id = str(value.submission);
    if (!id) continue;
    const t = timestampMs(value.t);
    if (value.type === 'submission_started') {
      rows.set(id, { id, status: 'running', success: null, scored: false, toolCalls: null, actions: arr(value.episodes).length, wallS: null, t, note: null, hasEvents: false });
    } else if (value.type === 'submission_completed' || value.type === 'submission_failed') {
      const row = rows.get(id);
      if (!row) continue;
      const failed = value.type === 'submission_failed';
      Object.assign(row, { status: failed ? 'failed' : 'completed', t, note: `charged ${num(value.charged) ?? 0}${failed ? ` · ${str(value.reason) ?? ''}` : ''}` });
      if (row.t !== null && t !== null) row.wallS = (t - row.t) / 1000;
    }
  }
  for (const row of rows.values()) {
    if (row.status !== 'completed') continue;
    const feedback = await r.json(`feedback/${row.id}.json`);
    const episodes = arr(feedback?.episodes).map(obj);
    if (episodes.length) {
      const wins = episodes.filter((e) => e.success === true).length;
      row.success = wins === episodes.length;
      row.scored = true;
      row.note = `${row.note} · ${wins}/${episodes.length} succeeded`;
    }
  }
  return {
    episodes: [...rows.values()],
    versions: [],
    vram: [],
    startedAt: timestampMs(events[0]?.value.t) ?? timestampMs(run.started_at),
    episodeBudget: null,
    frameSources: [],
    logStream: 'events',
    otherBudgets: [
      {
        label: 'submissions',
        used: [...rows.values()].filter((row) => row.status === 'completed').length,
        total: num(obj(run.config).max_submissions),
      },
    ],
    tables: [],
  };
}

export async function evopolicygymEventLogs(): Promise<EventLog[]> {
  return [{ stream: 'events', file: 'events.jsonl', eventName: (v) => (typeof v.type === 'string' ? v.type : 'event') }];
}
