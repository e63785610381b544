import type { EpisodeUnit } from '../../shared/model';

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
