import type { EpisodeRow } from '../../../shared/cell-detail';

export interface SuccessPoint {
  episode: string;
  /** Successes of those with a verdict so far, in %, to one decimal. */
  rate: number;
  /** How many had a verdict so far. */
  scored: number;
}

/**
 * The success rate after each ended episode with a verdict, in the rows' order. A row counted but with no
 * pass or fail of its own (an evopolicygym submission: its episodes are, the assessment scores the run) is
 * no point: counted as a failure, three submissions drew a line at 0 % beside a run at 85 %.
 */
export function successSoFar(episodes: readonly EpisodeRow[]): SuccessPoint[] {
  let scored = 0;
  let wins = 0;
  return episodes
    .filter((e) => e.status !== 'running' && e.scored && e.success !== null)
    .map((e) => {
      scored++;
      if (e.success) wins++;
      return { episode: e.id, rate: Math.round((wins / scored) * 1000) / 10, scored };
    });
}
