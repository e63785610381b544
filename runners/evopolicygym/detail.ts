import type { DetailTable, EpisodeRow } from '../../shared/cell-detail';
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
    tables: runTables(run, reservedNow(rows)),
  };
}

/** Episodes held by submissions still in flight. */
const reservedNow = (rows: Map<string, EpisodeRow>) => [...rows.values()].filter((r) => r.status === 'running').reduce((sum, r) => sum + (r.actions ?? 0), 0);

/** A candidate's validation result, wherever the record keeps it: under its id, in a results map, or a list of candidates. */
function validationOf(validation: JsonObject, program: string): JsonObject | null {
  const listed = arr(validation.candidates).map(obj).find((c) => str(c.program) === program);
  const found = listed ?? obj(validation.results)[program] ?? validation[program];
  return found === undefined ? null : obj(found);
}

/** The run as the record says it ended: its terminal reason as written, the pool and cap, validation and assessment apart. */
function runTables(run: JsonObject, reserved: number): DetailTable[] {
  const config = obj(run.config);
  const assessment = obj(run.assessment);
  const selected = str(run.selected_program);
  const tables: DetailTable[] = [
    {
      id: 'run',
      title: 'Run',
      columns: ['field', 'value'],
      rows: [
        ['terminal reason', str(run.terminal_reason) ?? '(running)'],
        ['episode budget', num(config.episode_budget)],
        ['reserved by a submission in flight', reserved],
        ['episode pool', num(config.episode_pool_size)],
        ['episodes per submission, at most', num(config.max_episodes_per_submission)],
        ['selected program', selected],
      ],
      note: null,
    },
  ];
  const handedOff = arr(run.handed_off).flatMap((id) => (typeof id === 'string' ? [id] : []));
  if (run.validation !== null && run.validation !== undefined) {
    const validation = obj(run.validation);
    tables.push({
      id: 'validation',
      title: 'Validation',
      columns: ['candidate', 'order', 'success rate', 'selected'],
      rows: handedOff.map((program, i) => [program, i + 1, num(validationOf(validation, program)?.success_rate), program === selected]),
      note: 'the host evaluates every handed-off candidate on the same validation episodes, and selects one',
    });
  }
  if (Object.keys(assessment).length) {
    tables.push({
      id: 'assessment',
      title: `Assessment (${str(assessment.split) ?? 'held-out'})`,
      columns: ['program', 'success rate', 'episodes'],
      rows: [[str(assessment.program), num(assessment.success_rate), arr(assessment.episodes).length]],
      note: 'an assessment never changes the selection',
    });
  }
  return tables;
}

export async function evopolicygymEventLogs(): Promise<EventLog[]> {
  return [{ stream: 'events', file: 'events.jsonl', eventName: (v) => (typeof v.type === 'string' ? v.type : 'event') }];
}
