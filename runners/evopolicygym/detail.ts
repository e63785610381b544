import type { DetailTable, EpisodeRow, ProgramSnapshot, TableValue } from '../../shared/cell-detail';
import type { CellReading } from '../common/cell';
import type { JsonObject } from '../common/json';
import { arr, num, obj, str, timestampMs } from '../common/values';
import type { DetailRead, EventLog } from '../types';
import { problem } from '../../shared/model';
import { counted } from '../../shared/counts';
import type { Submission } from './submissions';

/** What the cell view shows, from the files the summary read already parsed, and each submission's feedback. */
export async function evopolicygymDetail(r: CellReading, run: JsonObject, submissions: ReadonlyMap<string, Submission>, startedAt: number | null): Promise<DetailRead> {
  const rows = new Map<string, EpisodeRow>();
  for (const { id, start, end, charged } of submissions.values()) {
    if (!start) continue;
    const selected = arr(start.value.episodes).map(String);
    const row: EpisodeRow = {
      id, status: 'running', success: null, scored: false, toolCalls: null, actions: selected.length, wallS: null, t: timestampMs(start.value.t), note: null, hasEvents: false,
      facts: [{ label: 'episodes', value: `${selected.length}: ${selected.join(', ')}` }],
      files: [`feedback/${id}.json`],
    };
    rows.set(id, row);
    if (!end) continue;
    const failed = end.value.type === 'submission_failed';
    const t = timestampMs(end.value.t);
    // A negative charge is shown as written, and said to be left out (the log's problem names its line).
    const shown = charged ?? `${num(end.value.charged)}, not counted`;
    // From its start to its end; its time is then its end's, as an ended unit's is.
    const wallS = row.t !== null && t !== null ? (t - row.t) / 1000 : null;
    Object.assign(row, { status: failed ? 'failed' : 'completed', t, wallS, note: `charged ${shown}${failed ? ` · ${str(end.value.reason) ?? ''}` : ''}` });
    row.facts = [...(row.facts ?? []), { label: 'charged', value: String(shown) }, ...(failed ? [{ label: 'failed', value: str(end.value.reason) ?? 'no reason given' }] : [])];
  }
  for (const row of rows.values()) {
    if (row.status !== 'completed') continue;
    const feedback = await r.json(`feedback/${row.id}.json`);
    const episodes = arr(feedback?.episodes).map(obj);
    if (episodes.length) {
      const wins = episodes.filter((e) => e.success === true).length;
      // A submission is no pass or fail (its episodes are, and the assessment scores the run): its count says it.
      row.success = null;
      row.scored = true;
      row.note = `${row.note} · ${wins}/${episodes.length} succeeded`;
      row.facts = [
        ...(row.facts ?? []),
        { label: 'succeeded', value: `${wins} of ${episodes.length}` },
        ...episodes.map((e) => ({ label: `episode ${num(e.index) ?? '?'}`, value: `${e.success === true ? 'success' : 'failure'} · return ${num(e.return) ?? '?'} · ${num(e.steps) ?? '?'} steps` })),
      ];
    }
  }
  return {
    episodes: [...rows.values()],
    versions: [],
    vram: [],
    startedAt,
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
    programs: await programSnapshots(r, run, [...rows.values()].filter((row) => row.status === 'completed').map((row) => row.id)),
  };
}

const ordinal = (n: number) => `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

/** More files, folders or depth than a program of a policy holds: the listing stops there, and says so. */
const MAX_PROGRAM_FILES = 200;
const MAX_PROGRAM_FOLDERS = 200;
const MAX_PROGRAM_DEPTH = 8;

/**
 * Each published submission's immutable snapshot, `programs/<submission>/`, its files found down to
 * MAX_PROGRAM_DEPTH. A link is never followed (three links to `.` made 3^depth folders): it is listed as a problem.
 */
async function programSnapshots(r: CellReading, run: JsonObject, submissions: string[]): Promise<ProgramSnapshot[]> {
  const handedOff = arr(run.handed_off);
  const noteOf = (id: string) => {
    const order = handedOff.indexOf(id);
    const notes = [id === str(run.selected_program) && 'selected', order >= 0 && handedOff.length > 1 && `handed off ${ordinal(order + 1)}`];
    return notes.filter(Boolean).join(' · ') || null;
  };
  const snapshots: ProgramSnapshot[] = [];
  for (const id of submissions) {
    const files: ProgramSnapshot['files'] = [];
    const links: string[] = [];
    const folders: [string, number][] = [['', 0]];
    let listed = 0;
    let cut: string | null = null;
    while (folders.length && !cut) {
      const [folder, depth] = folders.shift() as [string, number];
      if (++listed > MAX_PROGRAM_FOLDERS) cut = `more than ${MAX_PROGRAM_FOLDERS} folders`;
      for (const entry of cut ? [] : await r.list(`programs/${id}${folder}`)) {
        const name = `${folder}/${entry.name}`;
        if (entry.link) links.push(name.slice(1));
        else if (entry.kind === 'dir' && depth + 1 > MAX_PROGRAM_DEPTH) cut ??= `folders deeper than ${MAX_PROGRAM_DEPTH}`;
        else if (entry.kind === 'dir') folders.push([name, depth + 1]);
        else if (entry.kind === 'file' && files.length < MAX_PROGRAM_FILES) files.push({ name: name.slice(1), path: `programs/${id}${name}` });
        else if (entry.kind === 'file') cut ??= `more than ${MAX_PROGRAM_FILES} files`;
      }
    }
    if (links.length) r.problems.push(problem(`programs/${id}`, `${counted(links.length, 'link')} in the snapshot, not followed: ${links.slice(0, 3).join(', ')}${links.length > 3 ? ', …' : ''}`, { severity: 'warning' }));
    if (cut) r.problems.push(problem(`programs/${id}`, `the snapshot holds ${cut}: the listing stops there`, { severity: 'warning' }));
    if (files.length) snapshots.push({ id, files: files.sort((a, b) => a.name.localeCompare(b.name)), note: noteOf(id) });
  }
  return snapshots;
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
  const fields: TableValue[][] = [
    ['terminal reason', str(run.terminal_reason) ?? '(running)'],
    ['episode budget', num(config.episode_budget)],
    ['reserved by a submission in flight', reserved],
    ['episode pool', num(config.episode_pool_size)],
    ['episodes per submission, at most', num(config.max_episodes_per_submission)],
    ['selected program', selected],
  ];
  const tables: DetailTable[] = [
    {
      id: 'run',
      title: 'Run',
      columns: ['field', 'value'],
      rows: fields,
      note: null,
      counted: counted(fields.length, 'field'),
      from: 'run.json: its terminal reason and config as written; reserved: the episodes of submissions started in events.jsonl and not yet completed or failed',
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
      counted: counted(handedOff.length, 'candidate'),
      from: "run.json: handed_off in order, each candidate's validation success_rate as the host wrote it",
      shares: ['success rate'],
    });
  }
  if (Object.keys(assessment).length) {
    tables.push({
      id: 'assessment',
      title: `Assessment (${str(assessment.split) ?? 'held-out'})`,
      columns: ['program', 'success rate', 'episodes'],
      rows: [[str(assessment.program), num(assessment.success_rate), arr(assessment.episodes).length]],
      note: 'an assessment never changes the selection',
      counted: counted(1, 'program'),
      from: "run.json: the assessment's program, success_rate and episodes as the host wrote them",
      shares: ['success rate'],
    });
  }
  return tables;
}

export async function evopolicygymEventLogs(): Promise<EventLog[]> {
  return [{ stream: 'events', file: 'events.jsonl', eventName: (v) => (typeof v.type === 'string' ? v.type : 'event') }];
}
