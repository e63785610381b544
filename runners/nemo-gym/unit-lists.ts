// The units a paired test pairs, from a collection as counted: kept in order as rollouts arrive.
import type { EpisodeUnit } from '../../shared/model';
import { addSorted } from '../../shared/arrays';
import { successOf } from './reward-stats';
import type { RowList } from './row-list';
import { unitOf, type NemoRow } from './row-block';

/** Code-point order: ICU's localeCompare costs a sort of 100,000 units a second. */
export const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** What unit lists are made from: a collection's rollouts in file order (those `conflicted` given again with another outcome), its failed units, its agents. */
export interface Counted {
  rollouts: RowList;
  conflicted: ReadonlySet<number>;
  failedUnits: { values(): Iterable<NemoRow> };
  byAgent: { size: number };
}

/**
 * A unit list as UnitLists keeps it: its rows in order (a rollout by its place in the collection's
 * rollouts, 0 on; a failed unit by its place in `failed`, -1 down), their units beside them, and what it
 * was made from.
 */
interface UnitList {
  rows: number[];
  units: EpisodeUnit[];
  failed: NemoRow[];
  /** The collection's rollouts it has met. */
  rollouts: number;
  changes: number;
  /** Units named `<agent>/<task>#<rollout>`. */
  named: boolean;
}

/** A unit's name: `<task>#<rollout>`, or with its agent `<agent>/<task>#<rollout>`. */
const unitName = (row: Pick<NemoRow, 'agent' | 'task' | 'repeat'>, named: boolean) => (named ? `${row.agent ?? ''}/${unitOf(row)}` : unitOf(row));

/** Whether the collection's units name their agent: it runs several. */
export const namesAgents = (collection: Pick<Counted, 'byAgent'>) => collection.byAgent.size > 1;

/** How the collection's units are named: `<task>#<rollout>`, or with several agents `<agent>/<task>#<rollout>`. */
export function unitNamer(collection: Pick<Counted, 'byAgent'>): (row: Pick<NemoRow, 'agent' | 'task' | 'repeat'>) => string {
  const named = namesAgents(collection);
  return (row) => unitName(row, named);
}

/** A unit list's rows read: by place, a rollout's from the collection's list, a failed unit's from `failed`. */
function listRows(rollouts: RowList, conflicted: ReadonlySet<number>, failed: readonly NemoRow[]) {
  const failedRow = (row: number) => failed[-1 - row] as NemoRow;
  const agent = (row: number) => (row >= 0 ? rollouts.agent(row) : failedRow(row).agent);
  const task = (row: number) => (row >= 0 ? rollouts.task(row) : (failedRow(row).task as number));
  const repeat = (row: number) => (row >= 0 ? rollouts.repeat(row) : failedRow(row).repeat);
  return {
    agent,
    order: (a: number, b: number) => byText(agent(a) ?? '', agent(b) ?? '') || task(a) - task(b) || (repeat(a) ?? 0) - (repeat(b) ?? 0),
    unit(row: number, named: boolean): EpisodeUnit {
      const id = unitName({ agent: agent(row), task: task(row), repeat: repeat(row) }, named);
      if (row >= 0 && conflicted.has(row)) return { id, status: 'repeated', success: null, scored: false };
      const failureClass = row >= 0 ? rollouts.failureClass(row) : failedRow(row).failureClass;
      if (failureClass !== null) return { id, status: `failed: ${failureClass}`, success: null, scored: false };
      const success = successOf(rollouts.scoredReward(row));
      return { id, status: 'rollout', success, scored: success !== null };
    },
  };
}

/** Each unit list handed out, one per agent asked for and one for all. */
export class UnitLists {
  private readonly lists = new Map<string, UnitList>();

  /**
   * The units a paired test pairs, in `<task>#<rollout>` order: each rollout, and each terminal failure as
   * not scored; one agent's (`agent`), or all (with several agents, each named `<agent>/<task>#<rollout>`).
   * Each list is kept and the rollouts counted since are merged into it in order, so an append costs what
   * was appended; a change to units already listed (`changes`, their count so far), or to how units are
   * named, makes it again.
   */
  of(c: Counted, changes: number, agent?: string): EpisodeUnit[] {
    const key = agent ?? '\u0000all';
    const named = agent === undefined && namesAgents(c);
    let list = this.lists.get(key);
    const fresh = !list || list.changes !== changes || list.named !== named;
    const failed = list && !fresh ? list.failed : [...c.failedUnits.values()];
    const rows = listRows(c.rollouts, c.conflicted, failed);
    const mine = (row: number) => agent === undefined || rows.agent(row) === agent;
    const added: number[] = [];
    for (let k = fresh ? 0 : (list as UnitList).rollouts; k < c.rollouts.length; k++) if (mine(k)) added.push(k);
    if (list && !fresh) {
      const merged = addSorted(list.rows, added, rows.order, { items: list.units, of: (row) => rows.unit(row, named) });
      [list.rows, list.units] = [merged.sorted, merged.beside];
    } else {
      const all = [...added, ...failed.map((_, j) => -1 - j).filter(mine)].sort(rows.order);
      list = { rows: all, units: all.map((row) => rows.unit(row, named)), failed, rollouts: 0, changes, named };
      this.lists.set(key, list);
    }
    list.rollouts = c.rollouts.length;
    return list.units;
  }
}
