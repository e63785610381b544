import { problem, type EpisodeUnit, type Problem } from '../../shared/model';
import type { JsonObject } from '../common/json';
import { amount, namedSome, noteRow, type Noted } from '../common/integrity';
import { bool, obj, str } from '../common/values';

export interface EpisodeEnd {
  status: string;
  success: boolean | null;
  engaged: boolean | null;
}

/**
 * Board scoring: an evaluated episode scores its success; rate_limited is excluded, and so is an
 * infra_error in which the agent made no tool call; any other unevaluated end scores 0. Null: not scored.
 */
export function scoredSuccess(end: EpisodeEnd): boolean | null {
  if (end.status === 'rate_limited') return null;
  if (end.status === 'infra_error' && end.engaged === false) return null;
  return end.status === 'evaluated' && end.success === true;
}

/** The amounts an ended episode of summary.json states, none of which may be negative. */
const AMOUNTS = ['tool_calls', 'actions', 'wall_s'];

/**
 * summary.json's ended episodes as units, in episode order. A negative amount of one (a wall time under a clock
 * stepped back) is a problem of `integrity` naming the episode's field; the views show it as absent. An
 * evaluated episode whose success is not true or false is left unscored, a problem of `integrity` too.
 */
export function endedUnits(summary: JsonObject | null, integrity: Problem[]): EpisodeUnit[] {
  const unjudged: Noted = { rows: 0, first: [] };
  const episodes = obj(summary?.episodes);
  // A cold status reads a million episodes: each unit made in one object, with no entries or scoring objects between.
  const units: EpisodeUnit[] = [];
  for (const id of Object.keys(episodes)) {
    const e = obj(episodes[id]);
    // One comparison each first, the names built only for one below 0.
    if ((e.tool_calls as number) < 0 || (e.actions as number) < 0 || (e.wall_s as number) < 0) {
      for (const field of AMOUNTS) amount(e[field], 'summary.json', `episodes.${id}.${field}`, integrity);
    }
    const status = str(e.status) ?? 'unknown';
    if (status === 'evaluated' && typeof e.success !== 'boolean') {
      noteRow(unjudged, () => `${id}: ${JSON.stringify(e.success) ?? 'none'}`);
      units.push({ id, status, success: null, scored: false });
      continue;
    }
    const success = scoredSuccess({ status, success: bool(e.success), engaged: bool(e.engaged) });
    units.push({ id, status, success, scored: success !== null });
  }
  units.sort((a, b) => Number(a.id) - Number(b.id));
  if (unjudged.rows) integrity.push(problem('summary.json', `${namedSome(unjudged.first, 'evaluated episode', { total: unjudged.rows })} with a success that is not true or false: left unscored`));
  return units;
}

/** The episodes a run plans: how many, and whether it holds one. */
export type Plan = Pick<ReadonlySet<number>, 'size' | 'has'>;

/**
 * The episodes a run plans (`list`, from `field` of `file`), each a whole number once: an entry that is not
 * one, or one given twice, is a problem of `integrity`, and the plan counts each episode once. The plan a
 * runner writes, 0 to n - 1 in order, is kept as its size (a cold status reads 10,000 of them).
 */
export function plannedEpisodes(list: readonly unknown[], file: string, field: string, integrity: Problem[]): Plan {
  let range = true;
  for (let i = 0; i < list.length && range; i++) range = list[i] === i;
  if (range) return { size: list.length, has: (n) => Number.isInteger(n) && n >= 0 && n < list.length };
  const plan = new Set<number>();
  const odd: Noted = { rows: 0, first: [] };
  const twice: Noted = { rows: 0, first: [] };
  for (const entry of list) {
    if (typeof entry !== 'number' || !Number.isInteger(entry) || entry < 0) noteRow(odd, () => JSON.stringify(entry) ?? String(entry));
    else if (plan.has(entry)) noteRow(twice, () => String(entry));
    else plan.add(entry);
  }
  if (odd.rows) integrity.push(problem(file, `${field} holds ${namedSome(odd.first, 'entry', { plural: 'entries', total: odd.rows })} that ${odd.rows === 1 ? 'is' : 'are'} no episode number: not planned`));
  if (twice.rows) integrity.push(problem(file, `${field} lists ${namedSome(twice.first, 'episode', { total: twice.rows })} more than once: planned once`));
  return plan;
}

/** The episode number an id names as the runner writes it ("7"); null for any other ("07", "-1", "1e300", "x"). */
function episodeNumber(id: string): number | null {
  if (id.length === 0 || id.length > 15 || (id.length > 1 && id.charCodeAt(0) === 48)) return null;
  let n = 0;
  for (let i = 0; i < id.length; i++) {
    const digit = id.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return null;
    n = n * 10 + digit;
  }
  return n;
}

/** Ended episodes the plan does not hold (an episode -1, or 250 of a plan of 100): a problem of `integrity` naming them. */
export function unplanned(units: readonly EpisodeUnit[], plan: Plan, planFrom: string, integrity: Problem[]): void {
  if (!plan.size) return;
  const outside: Noted = { rows: 0, first: [] };
  for (const u of units) {
    const n = episodeNumber(u.id);
    if (n === null || !plan.has(n)) noteRow(outside, () => u.id);
  }
  if (outside.rows) integrity.push(problem('summary.json', `${namedSome(outside.first, 'ended episode', { total: outside.rows })} not in the plan (${planFrom})`));
}
