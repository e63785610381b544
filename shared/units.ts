// The units a paired test pairs, in a form small enough to keep for 10,000 cells between starts and to hand
// between threads: a line a unit, `id TAB success scored` (success 1, 0 or -; scored 1 or 0). What the board
// needs of a unit, no more: its status stays in the cell's own files.
import type { EpisodeUnit } from './model';

const SUCCESS = { true: '1', false: '0', null: '-' } as const;

export function encodeUnits(units: EpisodeUnit[]): string {
  return units.map((u) => `${u.id.replace(/[\t\n]/g, ' ')}\t${SUCCESS[String(u.success) as keyof typeof SUCCESS]}${u.scored ? 1 : 0}`).join('\n');
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
