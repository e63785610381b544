import type { EpisodeUnit, Problem } from '../../shared/model';
import type { JsonObject } from '../common/json';
import { amount } from '../common/integrity';
import { bool, obj, str } from '../common/values';

export interface EpisodeEnd {
  status: string;
  success: boolean | null;
  engaged: boolean | null;
}

/**
 * Board scoring: an evaluated episode scores its success; rate_limited is excluded, and so is an
 * infra_error in which the agent made no tool call; any other unevaluated end scores 0.
 */
export function scoreEpisode(end: EpisodeEnd): { scored: boolean; success: boolean } {
  if (end.status === 'rate_limited') return { scored: false, success: false };
  if (end.status === 'infra_error' && end.engaged === false) return { scored: false, success: false };
  if (end.status === 'evaluated') return { scored: true, success: end.success === true };
  return { scored: true, success: false };
}

export function unitOf(id: string, end: EpisodeEnd): EpisodeUnit {
  const { scored, success } = scoreEpisode(end);
  return { id, status: end.status, success: scored ? success : null, scored };
}

/** The amounts an ended episode of summary.json states, none of which may be negative. */
const AMOUNTS = ['tool_calls', 'actions', 'wall_s'];

/**
 * summary.json's ended episodes as units, in episode order. A negative amount of one (a wall time under a clock
 * stepped back) is a problem of `integrity` naming the episode's field; the views show it as absent.
 */
export function endedUnits(summary: JsonObject | null, integrity: Problem[]): EpisodeUnit[] {
  return Object.entries(obj(summary?.episodes))
    .map(([id, raw]) => {
      const e = obj(raw);
      // A cold status reads a million episodes: one comparison each first, the names built only for one below 0.
      if ((e.tool_calls as number) < 0 || (e.actions as number) < 0 || (e.wall_s as number) < 0) {
        for (const field of AMOUNTS) amount(e[field], 'summary.json', `episodes.${id}.${field}`, integrity);
      }
      return unitOf(id, { status: str(e.status) ?? 'unknown', success: bool(e.success), engaged: bool(e.engaged) });
    })
    .sort((a, b) => Number(a.id) - Number(b.id));
}
