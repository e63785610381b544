// The units a paired test pairs, in a form small enough to keep for 10,000 cells between starts and to hand
// between threads: a line a unit, `id TAB success scored` (success 1, 0 or -; scored 1 or 0). What the board
// needs of a unit, no more: its status stays in the cell's own files.
import type { EpisodeUnit } from './model';

/** What follows a unit's id on its line: a tab, its success (1, 0 or -), whether it is scored (1 or 0). */
const outcome = (u: EpisodeUnit) => (u.success === null ? (u.scored ? '\t-1' : '\t-0') : u.success ? (u.scored ? '\t11' : '\t10') : u.scored ? '\t01' : '\t00');

/** An id within its line: a tab or newline in it would end its field or line. */
const field = (id: string) => (id.includes('\t') || id.includes('\n') ? id.replace(/[\t\n]/g, ' ') : id);

/** Made for every cell a cold status reads (a million units): one short string a unit before the join. */
export function encodeUnits(units: EpisodeUnit[]): string {
  return units.map((u) => field(u.id) + outcome(u)).join('\n');
}

/**
 * One agent's units of a collection that runs several, whose units are named `<agent>/<task>#<rollout>`:
 * encoded as that agent's side of a paired test names them (`<task>#<rollout>`, which holds no slash: agent
 * `a` is not agent `a/b`).
 */
export function agentUnits(encoded: string, agent: string): string {
  const prefix = `${agent.replace(/[\t\n]/g, ' ')}/`;
  return encoded
    .split('\n')
    .flatMap((line) => {
      const unit = line.startsWith(prefix) ? line.slice(prefix.length) : '';
      return unit && !unit.slice(0, unit.indexOf('\t')).includes('/') ? [unit] : [];
    })
    .join('\n');
}
