import type { EpisodeRow } from '../../../shared/cell-detail';
import { listCost, type TokenPrice } from '../../../shared/cost';
import { thinnedAt } from './decimate';

/** A share (0 to 1) as a percentage to one decimal, as the charts draw it. */
export const percentOf = (share: number) => Math.round(share * 1000) / 10;

/** Successes of those with a verdict so far, in %, to one decimal, and how many had one. */
export interface SoFar {
  rate: number;
  scored: number;
}

export interface SuccessPoint extends SoFar {
  episode: string;
  /** Each group's (version's, agent's) rate so far, for the groups seen by this point. */
  groups: Record<string, SoFar>;
}

/**
 * The success rate after each ended episode with a verdict, in the rows' order, pooled and per group: at most
 * `most` of those points, as `thin` keeps them, each built only if kept (a collection's 10,000 rollouts drew
 * 200). A row counted but with no pass or fail of its own (a record's submission: its episodes are, the
 * assessment scores the run) is no point: counted as a failure, three submissions drew a line at 0 % beside a
 * run at 85 %.
 */
export function successSoFar(episodes: readonly EpisodeRow[], most = Infinity): SuccessPoint[] {
  const judged = episodes.filter((e) => e.status !== 'running' && e.scored && e.success !== null);
  const kept = thinnedAt(judged.length, most);
  const pooled = { scored: 0, wins: 0 };
  const tallies = new Map<string, { scored: number; wins: number }>();
  const rateOf = (t: { scored: number; wins: number }): SoFar => ({ rate: percentOf(t.wins / t.scored), scored: t.scored });
  const points: SuccessPoint[] = [];
  judged.forEach((e, i) => {
    pooled.scored++;
    if (e.success) pooled.wins++;
    if (e.group !== undefined) {
      const tally = tallies.get(e.group) ?? { scored: 0, wins: 0 };
      tallies.set(e.group, tally);
      tally.scored++;
      if (e.success) tally.wins++;
    }
    if (kept[points.length] !== i) return;
    const groups: Record<string, SoFar> = {};
    for (const [group, tally] of tallies) groups[group] = rateOf(tally);
    points.push({ episode: e.id, ...rateOf(pooled), groups });
  });
  return points;
}

/** The groups of the rows, in the order they first appear. */
export function groupsOf(episodes: readonly EpisodeRow[]): string[] {
  return [...new Set(episodes.flatMap((e) => (e.group === undefined ? [] : [e.group])))];
}

const HOUR_MS = 3_600_000;
/** An hour between the first and the last with units ended in it is drawn at $0, up to this many hours. */
const MOST_HOURS = 24 * 31;

/** What the units that ended in one hour cost at list prices. */
export interface HourSpend {
  /** Epoch ms the hour starts. */
  hour: number;
  usd: number;
  units: number;
}

/**
 * The estimated spend per hour: each unit's tokens at its cell's list price (the rule its estimate is worked out
 * by), summed by the hour it ended in; the hours between with none at $0. Units without an end time or tokens
 * are left out.
 */
export function spendByHour(episodes: readonly EpisodeRow[], price: TokenPrice): HourSpend[] {
  const byHour = new Map<number, HourSpend>();
  for (const e of episodes) {
    const u = e.usage;
    if (e.t === null || !u || u.input === null || u.output === null) continue;
    const hour = Math.floor(e.t / HOUR_MS) * HOUR_MS;
    let spend = byHour.get(hour);
    if (!spend) byHour.set(hour, (spend = { hour, usd: 0, units: 0 }));
    spend.usd += listCost(price, { input: u.input, cached: u.cached, output: u.output });
    spend.units++;
  }
  const hours = [...byHour.values()].sort((a, b) => a.hour - b.hour);
  const [first, last] = [hours[0], hours.at(-1)];
  if (!first || !last || (last.hour - first.hour) / HOUR_MS >= MOST_HOURS) return hours;
  return Array.from({ length: (last.hour - first.hour) / HOUR_MS + 1 }, (_, i) => byHour.get(first.hour + i * HOUR_MS) ?? { hour: first.hour + i * HOUR_MS, usd: 0, units: 0 });
}
