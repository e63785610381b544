import type { EpisodeRow } from '../../../shared/cell-detail';

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
 * The success rate after each ended episode with a verdict, in the rows' order, pooled and per group. A row
 * counted but with no pass or fail of its own (an evopolicygym submission: its episodes are, the assessment
 * scores the run) is no point: counted as a failure, three submissions drew a line at 0 % beside a run at 85 %.
 */
export function successSoFar(episodes: readonly EpisodeRow[]): SuccessPoint[] {
  const pooled = { scored: 0, wins: 0 };
  const tallies = new Map<string, { scored: number; wins: number }>();
  const rateOf = (t: { scored: number; wins: number }): SoFar => ({ rate: Math.round((t.wins / t.scored) * 1000) / 10, scored: t.scored });
  let groups: Record<string, SoFar> = {};
  return episodes
    .filter((e) => e.status !== 'running' && e.scored && e.success !== null)
    .map((e) => {
      pooled.scored++;
      if (e.success) pooled.wins++;
      if (e.group !== undefined) {
        const tally = tallies.get(e.group) ?? { scored: 0, wins: 0 };
        tallies.set(e.group, tally);
        tally.scored++;
        if (e.success) tally.wins++;
        groups = { ...groups, [e.group]: rateOf(tally) };
      }
      return { episode: e.id, ...rateOf(pooled), groups };
    });
}

/** The groups of the rows, in the order they first appear. */
export function groupsOf(episodes: readonly EpisodeRow[]): string[] {
  return [...new Set(episodes.flatMap((e) => (e.group === undefined ? [] : [e.group])))];
}
