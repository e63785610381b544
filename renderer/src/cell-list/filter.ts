// The cell list's filter: words, `field:value` (state:running, format:FORMAT, host:gpu1) and numbers
// compared with > and < (success>50, problems>0). Every term must hold; a word alone is looked for in the
// name, format, board, state, path and labels. The window teaches it: completions of field names and of
// the values the listed cells have, and the syntax said when nothing matches (its format one a listed cell has:
// the window names no format of its own).
import type { CellSummary } from '../../../shared/model';
import { STATE_LOOK, stuckKinds } from './states';

/** The fields `field:value` names, each a cell's text. */
const TEXT_FIELDS: Record<string, (c: CellSummary) => string | null> = {
  // A stuck or looping unit makes its cell `state:stuck` or `state:looping` too.
  state: (c) => [STATE_LOOK[c.state].label, ...stuckKinds(c, Date.now())].join(' '),
  format: (c) => c.format,
  host: (c) => c.host,
  board: (c) => c.board,
  harness: (c) => c.labels.harness,
  model: (c) => c.labels.model,
  condition: (c) => c.labels.condition,
  effort: (c) => c.labels.effort,
  name: (c) => c.name,
  root: (c) => c.root,
};

/** The fields > and < compare, each a cell's number (success in %, cost in est. USD); null: none. */
const NUMBER_FIELDS: Record<string, (c: CellSummary) => number | null> = {
  success: (c) => (c.success_rate === null ? null : c.success_rate * 100),
  episodes: (c) => c.episodes.ended,
  scored: (c) => c.episodes.scored,
  problems: (c) => c.problems.length,
  cost: (c) => c.cost_usd_estimate,
};

/** The filter's syntax in words, its format example the first listed cell's (none without cells). */
export function filterSyntax(cells: readonly CellSummary[]): string {
  const format = cells[0]?.format;
  return `words; field:value (state:running, state:stuck, ${format ? `format:${format}, ` : ''}host:gpu1); a number with > or < (success>50, problems>0)`;
}

type Term = { kind: 'text'; field: string; value: string } | { kind: 'number'; field: string; above: boolean; value: number } | { kind: 'word'; value: string };

function termOf(word: string): Term {
  const compared = /^([a-z]+)([<>])(-?\d+(?:\.\d+)?)%?$/.exec(word);
  if (compared && Object.hasOwn(NUMBER_FIELDS, compared[1] as string)) return { kind: 'number', field: compared[1] as string, above: compared[2] === '>', value: Number(compared[3]) };
  const named = /^([a-z]+):(.*)$/.exec(word);
  if (named && Object.hasOwn(TEXT_FIELDS, named[1] as string)) return { kind: 'text', field: named[1] as string, value: named[2] as string };
  return { kind: 'word', value: word };
}

/** The filter as terms, lower case. */
export const parseFilter = (filter: string): Term[] => filter.toLowerCase().split(/\s+/).filter(Boolean).map(termOf);

function holds(cell: CellSummary, term: Term): boolean {
  if (term.kind === 'number') {
    const n = (NUMBER_FIELDS[term.field] as (c: CellSummary) => number | null)(cell);
    return n !== null && (term.above ? n > term.value : n < term.value);
  }
  if (term.kind === 'text') return ((TEXT_FIELDS[term.field] as (c: CellSummary) => string | null)(cell) ?? '').toLowerCase().includes(term.value);
  const haystack = [cell.name, cell.format, cell.board, STATE_LOOK[cell.state].label, cell.path, ...Object.values(cell.labels)].join(' ').toLowerCase();
  return haystack.includes(term.value);
}

export function matches(cell: CellSummary, terms: Term[]): boolean {
  return terms.every((term) => holds(cell, term));
}

/**
 * What the last word typed may become: a field name (`sta` → `state:`), or a value of that field the cells
 * have (`state:r` → `state:running`); at most `most`, the filter as it would read with each.
 */
export function completions(filter: string, cells: readonly CellSummary[], most = 6): string[] {
  const cut = filter.lastIndexOf(' ') + 1;
  const [before, last] = [filter.slice(0, cut), filter.slice(cut).toLowerCase()];
  if (last === '') return [];
  const named = /^([a-z]+):(.*)$/.exec(last);
  if (named && Object.hasOwn(TEXT_FIELDS, named[1] as string)) {
    const of = TEXT_FIELDS[named[1] as string] as (c: CellSummary) => string | null;
    const values = [...new Set(cells.map(of).filter((v): v is string => v !== null && v !== ''))].sort();
    return values.filter((v) => v.toLowerCase().startsWith(named[2] as string) && v.toLowerCase() !== named[2]).slice(0, most).map((v) => `${before}${named[1]}:${v.split(/[\s,]+/)[0] ?? v}`);
  }
  if (/[:<>]/.test(last)) return [];
  const fields = [...Object.keys(TEXT_FIELDS).map((f) => `${f}:`), ...Object.keys(NUMBER_FIELDS).map((f) => `${f}>`)];
  return fields.filter((f) => f.startsWith(last) && f !== last).slice(0, most).map((f) => `${before}${f}`);
}
