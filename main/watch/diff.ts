import type { CellDetail, CellDelta, EpisodeRow } from '../../shared/cell-detail';
import { problemKey, type CellSummary } from '../../shared/model';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Whether two episode rows say the same (as their JSON does, fields in any order): field by field, only a
 * nested value (tokens, facts) by its JSON. A cell of thousands of episodes is diffed at each reread, on
 * the thread that serves the window: each row whole as JSON, twice, took milliseconds there.
 */
export function sameRow(a: EpisodeRow | undefined, b: EpisodeRow): boolean {
  if (a === undefined) return false;
  const x = a as unknown as Record<string, unknown>;
  const y = b as unknown as Record<string, unknown>;
  let fields = 0;
  for (const key in y) {
    const value = y[key];
    if (value === undefined) continue;
    fields++;
    const was = x[key];
    if (was !== value && (typeof was !== 'object' || typeof value !== 'object' || was === null || value === null || !same(was, value))) return false;
  }
  for (const key in x) if (x[key] !== undefined) fields--;
  return fields === 0;
}

/** The part of `next` that differs from `previous`: changed summary fields, new or changed rows, new problems. */
export function diffDetail(cellId: string, previous: CellDetail, next: CellDetail, seenProblems: Set<string>): CellDelta | null {
  const delta: CellDelta = { cellId };
  const summary: Partial<CellSummary> = {};
  for (const key of Object.keys(next.summary) as (keyof CellSummary)[]) {
    if (!same(previous.summary[key], next.summary[key])) (summary as Record<string, unknown>)[key] = next.summary[key];
  }
  if (Object.keys(summary).length) delta.summary = summary;

  const before = new Map(previous.episodes.map((e) => [e.id, e]));
  const episodes: EpisodeRow[] = next.episodes.filter((e) => !sameRow(before.get(e.id), e));
  if (episodes.length) delta.episodes = episodes;
  if (!same(previous.versions, next.versions)) delta.versions = next.versions;
  if (!same(previous.tables, next.tables)) delta.tables = next.tables;
  if (!same(previous.programs, next.programs)) delta.programs = next.programs;

  const fresh = next.summary.problems.filter((p) => !seenProblems.has(problemKey(p)));
  fresh.forEach((p) => seenProblems.add(problemKey(p)));
  if (fresh.length) delta.problems = fresh;
  return Object.keys(delta).length > 1 ? delta : null;
}
