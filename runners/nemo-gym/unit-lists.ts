// The units a paired test pairs, from a collection as counted: kept in order as rollouts arrive.
import type { EpisodeUnit } from '../../shared/model';
import { addSorted } from '../../shared/arrays';
import { successOf } from './reward-stats';
import { unitOf, type NemoRow } from './rows';

/** Code-point order: ICU's localeCompare costs a sort of 100,000 units a second. */
export const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** What unit lists are made from: a collection's rollouts in file order, its failed units, its agents. */
export interface Counted {
  rollouts: readonly NemoRow[];
  failedUnits: { values(): Iterable<NemoRow> };
  byAgent: { size: number };
}

/** A unit list as UnitLists keeps it: its rows in order, their units beside them, and what it was made from. */
interface UnitList {
  rows: NemoRow[];
  units: EpisodeUnit[];
  /** The collection's rollouts it has met. */
  rollouts: number;
  failedChanges: number;
  /** Units named `<agent>/<task>#<rollout>`. */
  named: boolean;
}

const unitOrder = (a: NemoRow, b: NemoRow) => byText(a.agent ?? '', b.agent ?? '') || (a.task as number) - (b.task as number) || (a.repeat ?? 0) - (b.repeat ?? 0);

/** A unit named with its agent, as a collection of several agents names them. */
const agentUnitOf = (row: NemoRow) => `${row.agent ?? ''}/${unitOf(row)}`;

/** Whether the collection's units name their agent: it runs several. */
export const namesAgents = (collection: Pick<Counted, 'byAgent'>) => collection.byAgent.size > 1;

/** How the collection's units are named: `<task>#<rollout>`, or with several agents `<agent>/<task>#<rollout>`. */
export function unitNamer(collection: Pick<Counted, 'byAgent'>): (row: NemoRow) => string {
  return namesAgents(collection) ? agentUnitOf : unitOf;
}

function unitOfRow(row: NemoRow, named: boolean): EpisodeUnit {
  const id = named ? agentUnitOf(row) : unitOf(row);
  if (row.failureClass !== null) return { id, status: `failed: ${row.failureClass}`, success: null, scored: false };
  const success = successOf(row);
  return { id, status: 'rollout', success, scored: success !== null };
}

/** Each unit list handed out, one per agent asked for and one for all. */
export class UnitLists {
  private readonly lists = new Map<string, UnitList>();

  /**
   * The units a paired test pairs, in `<task>#<rollout>` order: each rollout, and each terminal failure as
   * not scored; one agent's (`agent`), or all (with several agents, each named `<agent>/<task>#<rollout>`).
   * Each list is kept and the rollouts counted since are merged into it in order, so an append costs what
   * was appended; a change to the failed units (`failedChanges`, their count so far), or to how units are
   * named, makes it again.
   */
  of(c: Counted, failedChanges: number, agent?: string): EpisodeUnit[] {
    const key = agent ?? '\u0000all';
    const named = agent === undefined && namesAgents(c);
    const mine = (row: NemoRow) => agent === undefined || row.agent === agent;
    let list = this.lists.get(key);
    if (list && list.failedChanges === failedChanges && list.named === named) {
      const added = addSorted(list.rows, c.rollouts.slice(list.rollouts).filter(mine), unitOrder, { items: list.units, of: (row) => unitOfRow(row, named) });
      [list.rows, list.units] = [added.sorted, added.beside];
    } else {
      const rows = [...c.rollouts.filter(mine), ...[...c.failedUnits.values()].filter(mine)].sort(unitOrder);
      list = { rows, units: rows.map((row) => unitOfRow(row, named)), rollouts: 0, failedChanges, named };
      this.lists.set(key, list);
    }
    list.rollouts = c.rollouts.length;
    return list.units;
  }
}
