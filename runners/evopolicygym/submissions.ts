import { problem, type Problem } from '../../shared/model';
import { amount, namedSome, noteRow, type Noted } from '../common/integrity';
import type { JsonlRecord } from '../common/jsonl';
import { arr, num, str } from '../common/values';

const EVENTS = 'events.jsonl';

/** One submission as the host's event log gives it: its first start and its first end (completion or failure). */
export interface Submission {
  id: string;
  start: JsonlRecord | null;
  end: JsonlRecord | null;
  /** What its end charged; null when it has not ended, or charged a negative amount (a problem, left out). */
  charged: number | null;
}

/**
 * Each submission of the log once, and what the log gives twice: a submission started or ended again is a
 * problem naming it and both lines, and only its first start and end count (a second end charging again
 * would charge the budget twice). A negative charge breaks the integrity rules: a problem of its line, left
 * out of the budget.
 */
export function submissionsOf(events: readonly JsonlRecord[]): { submissions: Map<string, Submission>; problems: Problem[]; integrity: Problem[] } {
  const submissions = new Map<string, Submission>();
  const problems: Problem[] = [];
  const integrity: Problem[] = [];
  // The first few of each, and how many: a log that ends one submission a million times names three.
  const restarted: Noted = { rows: 0, first: [] };
  const reended: Noted = { rows: 0, first: [] };
  for (const record of events) {
    const { value, line } = record;
    const id = str(value.submission);
    if (!id) continue;
    const ending = value.type === 'submission_completed' || value.type === 'submission_failed';
    if (value.type !== 'submission_started' && !ending) continue;
    let submission = submissions.get(id);
    if (!submission) submissions.set(id, (submission = { id, start: null, end: null, charged: null }));
    const first = ending ? submission.end : submission.start;
    if (first) noteRow(ending ? reended : restarted, () => `${id} at lines ${first.line} and ${line}`);
    else if (!ending) submission.start = record;
    else {
      submission.end = record;
      // No charge given charges nothing (a capture that failed).
      submission.charged = num(value.charged) === null ? 0 : amount(value.charged, EVENTS, 'charged', integrity, line);
    }
  }
  if (restarted.rows) problems.push(problem(EVENTS, `${namedSome(restarted.first, 'start', { total: restarted.rows })} of a submission already started: only its first counts`));
  if (reended.rows) problems.push(problem(EVENTS, `${namedSome(reended.first, 'end', { total: reended.rows })} of a submission already ended: only its first counts, and charges the budget`));
  return { submissions, problems, integrity };
}

/** Episodes charged by ended submissions, and reserved by those in flight (started, not yet completed or failed). */
export function budgetOf(submissions: ReadonlyMap<string, Submission>): { charged: number; reserved: number } {
  let charged = 0;
  let reserved = 0;
  for (const s of submissions.values()) {
    if (s.end) charged += s.charged ?? 0;
    else if (s.start) reserved += arr(s.start.value.episodes).length;
  }
  return { charged, reserved };
}
