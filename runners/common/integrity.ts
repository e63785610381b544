// The integrity rules every reader applies (runners/FORMATS.md): one unit, one outcome; counts within their
// plan; a stated rate the units give; no negative amounts. What breaks them is a problem naming its file,
// and (returned as the read's `integrity`) takes the cell off its board until the files are mended.
import { problem, type Cell, type EpisodeUnit, type Problem } from '../../shared/model';
import { counted, whole } from '../../shared/counts';
import { elided, MAX_NAME_CHARS } from '../../shared/elide';
import { num, obj } from './values';

const outcomeOf = (u: EpisodeUnit) => (u.scored ? (u.success ? 'success' : 'failure') : u.status);

/** How many units (repeated, unplanned, ...) one problem names before it counts the rest. */
export const NAMED = 3;

/**
 * Each unit of a file's list once. `unitOf` reads the unit of an entry (null: none), `placeOf(i)` says where
 * entry i is (`episodes[7]`). A unit given again with the same outcome is kept once; with another outcome it
 * is kept once as `repeated`, not scored, so no view counts either outcome. Either way the repeat is a
 * problem of `file` naming the unit and its first places. Nothing is kept per unit but its first entry's index
 * (a summary of 500,000 seeds is read whole), and per repeated unit but its first few places.
 */
export function oneOutcome(list: readonly unknown[], unitOf: (entry: unknown) => EpisodeUnit | null, placeOf: (i: number) => string, file: string, noun = 'unit'): { units: EpisodeUnit[]; problems: Problem[] } {
  const first = new Map<string, number>();
  const units: EpisodeUnit[] = [];
  /** Each repeated unit's first entries, how many it has, and their outcomes. */
  const repeats = new Map<string, { places: number[]; entries: number; outcomes: Set<string> }>();
  list.forEach((entry, i) => {
    const unit = unitOf(entry);
    if (!unit) return;
    const at = first.get(unit.id);
    if (at === undefined) {
      first.set(unit.id, i);
      units.push(unit);
      return;
    }
    let repeat = repeats.get(unit.id);
    if (!repeat) repeats.set(unit.id, (repeat = { places: [at], entries: 1, outcomes: new Set([outcomeOf(unitOf(list[at]) as EpisodeUnit)]) }));
    if (repeat.entries++ < NAMED) repeat.places.push(i);
    repeat.outcomes.add(outcomeOf(unit));
  });
  if (!repeats.size) return { units, problems: [] };
  const conflicting = new Set([...repeats].filter(([, r]) => r.outcomes.size > 1).map(([id]) => id));
  const kept = units.map((u) => (conflicting.has(u.id) ? { id: u.id, status: 'repeated', success: null, scored: false } : u));
  const placesOf = (r: { places: number[]; entries: number }) => (r.entries > NAMED ? `${r.places.map(placeOf).join(', ')} and ${counted(r.entries - NAMED, 'more place')}` : r.places.map(placeOf).join(' and '));
  const named = [...repeats].slice(0, NAMED).map(([id, r]) => `${noun} ${elided(id, MAX_NAME_CHARS)} at ${placesOf(r)}${r.outcomes.size > 1 ? ` (${[...r.outcomes].join(', then ')})` : ''}`);
  const more = repeats.size > NAMED ? `; ${counted(repeats.size - NAMED, 'more')}` : '';
  const left = conflicting.size ? `; ${counted(conflicting.size, noun)} with two outcomes left unscored` : '';
  return { units: kept, problems: [problem(file, `${counted(repeats.size, noun)} given more than once: ${named.join('; ')}${more}${left}`)] };
}

/** Where a list of judged units is, and what its problems call things. */
export interface JudgedList {
  file: string;
  /** Where entry i is (`episodes[7]`). */
  placeOf: (i: number) => string;
  /** A unit ("seed"), and what an entry without one lacks ("a whole-number seed"). */
  noun: string;
  id: string;
  /** Words after the unjudged units' count (" of the assessment"); none by default. */
  of?: string;
}

/**
 * The units of a list of judged entries (`{<id>, success}`), each once (oneOutcome): an entry `idOf` finds no
 * id in is not counted, a success that is not true or false leaves its unit unscored (`unjudged`), each a
 * problem of `where.file`. `fixed`, where given, is every unit's outcome whatever its entry says (a bigym
 * policy rejected: 0 on every seed).
 */
export function judgedUnits(entries: readonly unknown[], idOf: (entry: unknown) => number | null, where: JudgedList, fixed?: Omit<EpisodeUnit, 'id'>): { units: EpisodeUnit[]; problems: Problem[] } {
  const unitOf = (raw: unknown): EpisodeUnit | null => {
    const id = idOf(raw);
    if (id === null) return null;
    if (fixed) return { id: String(id), ...fixed };
    const success = obj(raw).success;
    return typeof success === 'boolean' ? { id: String(id), status: 'scored', success, scored: true } : { id: String(id), status: 'unjudged', success: null, scored: false };
  };
  const { units, problems } = oneOutcome(entries, unitOf, where.placeOf, where.file, where.noun);
  const none = entries.flatMap((entry, i) => (idOf(entry) === null ? [where.placeOf(i)] : []));
  if (none.length) problems.push(problem(where.file, `${namedSome(none, 'entry', { plural: 'entries' })} without ${where.id}: not counted`));
  const unjudged = units.filter((u) => u.status === 'unjudged').map((u) => u.id);
  if (unjudged.length) problems.push(problem(where.file, `${namedSome(unjudged, where.noun)}${where.of ?? ''} with a success that is not true or false: left unscored`));
  return { units, problems };
}

/** Rows of a kind a problem will name: how many, and the first NAMED in words; never each one kept. */
export interface Noted {
  rows: number;
  first: string[];
}

/** One more row of the kind; its words (`what`) are made only while it is among the first NAMED. */
export function noteRow(noted: Noted, what: () => string): void {
  if (noted.rows++ < NAMED) noted.first.push(what());
}

/**
 * Some of `items` counted, the first few named: "3 episodes (4, 9, 12)", "5 episodes (4, 9, 12 and 2 more)";
 * `total` where only the first few were kept.
 */
export function namedSome(items: readonly string[], noun: string, { plural = `${noun}s`, total = items.length } = {}): string {
  const named = items.slice(0, NAMED).map((item) => elided(item, MAX_NAME_CHARS));
  const more = total > named.length ? ` and ${whole(total - named.length)} more` : '';
  return `${counted(total, noun, plural)} (${named.join(', ')}${more})`;
}

/** A count past its plan (`200/100`): a problem, never a figure, in the words of its format's unit ("120 seeds ended"). */
export function pastPlan(cell: Pick<Cell, 'episodes' | 'path'>, unit: string): Problem[] {
  const { ended, planned } = cell.episodes;
  if (planned === null || ended <= planned) return [];
  return [problem(cell.path, `${counted(ended, unit)} ended, past the ${whole(planned)} planned: a count cannot exceed its plan`)];
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

/** An amount (tokens, a charge, a duration): a negative one is a problem of its file and field (and line), and reads as absent. */
export function amount(value: unknown, file: string, field: string, problems: Problem[], line?: number): number | null {
  const n = num(value);
  if (n === null || n >= 0) return n;
  problems.push(problem(file, `${field} is ${n}: an amount cannot be negative; left out of every sum`, { line }));
  return null;
}

/** An amount as every view shows it, where its problem was said when the cell was read: a negative one is absent. */
export function nonNegative(value: unknown): number | null {
  const n = num(value);
  return n !== null && n >= 0 ? n : null;
}
