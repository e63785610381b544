// The integrity rules every reader applies (runners/FORMATS.md): one unit, one outcome; counts within their
// plan; a stated rate the units give; no negative amounts. What breaks them is a problem naming its file,
// and (returned as the read's `integrity`) takes the cell off its board until the files are mended.
import { problem, type Cell, type EpisodeUnit, type Problem } from '../../shared/model';
import { counted } from '../../shared/counts';
import { num } from './values';

/** A unit as a file gives it: where (`episodes[7]`, `line 12`). */
export interface GivenUnit {
  unit: EpisodeUnit;
  place: string;
}

const outcomeOf = (u: EpisodeUnit) => (u.scored ? (u.success ? 'success' : 'failure') : u.status);

/** How many repeated units one problem names before it counts the rest. */
const NAMED = 3;

/**
 * Each unit once. A unit given again with the same outcome is kept once; with another outcome it is kept
 * once as `repeated`, not scored, so no view counts either outcome. Either way the repeat is a problem of
 * `file` naming the unit and its places.
 */
export function oneOutcome(given: readonly GivenUnit[], file: string, noun = 'unit'): { units: EpisodeUnit[]; problems: Problem[] } {
  const seen = new Map<string, { at: number; places: string[]; outcomes: Set<string> }>();
  const units: EpisodeUnit[] = [];
  for (const { unit, place } of given) {
    const there = seen.get(unit.id);
    if (!there) {
      seen.set(unit.id, { at: units.length, places: [place], outcomes: new Set([outcomeOf(unit)]) });
      units.push(unit);
      continue;
    }
    there.places.push(place);
    there.outcomes.add(outcomeOf(unit));
    if (there.outcomes.size > 1) units[there.at] = { id: unit.id, status: 'repeated', success: null, scored: false };
  }
  const repeated = [...seen].filter(([, s]) => s.places.length > 1);
  if (!repeated.length) return { units, problems: [] };
  const named = repeated.slice(0, NAMED).map(([id, s]) => `${noun} ${id} at ${s.places.join(' and ')}${s.outcomes.size > 1 ? ` (${[...s.outcomes].join(', then ')})` : ''}`);
  const more = repeated.length > NAMED ? `; ${counted(repeated.length - NAMED, 'more')}` : '';
  const conflicting = repeated.filter(([, s]) => s.outcomes.size > 1).length;
  const kept = conflicting ? `; ${counted(conflicting, noun)} with two outcomes left unscored` : '';
  return { units, problems: [problem(file, `${counted(repeated.length, noun)} given more than once: ${named.join('; ')}${more}${kept}`)] };
}

/** A count past its plan (`200/100`): a problem, never a figure. */
export function pastPlan(cell: Pick<Cell, 'episodes' | 'path'>): Problem[] {
  const { ended, planned } = cell.episodes;
  if (planned === null || ended <= planned) return [];
  return [problem(cell.path, `${ended} units ended, past the ${planned} planned: a count cannot exceed its plan`)];
}

/** A rate a file states, checked against its units: a mismatch is a problem; the units' own rate is the figure. */
export function statedRate(stated: unknown, units: readonly EpisodeUnit[], file: string, field: string): Problem[] {
  const said = num(stated);
  const scored = units.filter((u) => u.scored);
  if (said === null || !scored.length) return [];
  const successes = scored.filter((u) => u.success).length;
  const rate = successes / scored.length;
  return Math.abs(said - rate) > 1e-9 ? [problem(file, `${field} ${said}, but its units give ${successes}/${scored.length} = ${rate}`)] : [];
}

/** An amount (tokens, a charge, a duration): a negative one is a problem of its file and field, and reads as absent. */
export function amount(value: unknown, file: string, field: string, problems: Problem[]): number | null {
  const n = num(value);
  if (n === null || n >= 0) return n;
  problems.push(problem(file, `${field} is ${n}: an amount cannot be negative; left out of every sum`));
  return null;
}
