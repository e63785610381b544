// The cell list's rows: its cells sorted by a column, grouped under a header per host, format or model.
import { isLive, type CellSummary } from '../../../shared/model';
import type { Sort } from '../sorting';
import { COLUMNS } from './columns';

export type GroupBy = 'none' | 'host' | 'format' | 'model';
/** A group's header: its cells, how many run, and the success rate over the group's scored episodes. */
interface GroupHead {
  kind: 'group';
  label: string;
  count: number;
  running: number;
  successRate: number | null;
}
export type Row = GroupHead | { kind: 'cell'; cell: CellSummary };

function groupHead(label: string, members: CellSummary[]): GroupHead {
  const scored = members.reduce((sum, c) => sum + c.episodes.scored, 0);
  const successes = members.reduce((sum, c) => sum + c.episodes.successes, 0);
  return { kind: 'group', label, count: members.length, running: members.filter((c) => isLive(c.state)).length, successRate: scored ? successes / scored : null };
}

const GROUP_KEY: Record<Exclude<GroupBy, 'none'>, (cell: CellSummary) => string> = {
  host: (c) => c.host,
  format: (c) => c.format,
  model: (c) => c.labels.model ?? 'model unknown',
};

/** The list's rows: the cells in their order, under a header per group when grouped. */
export function groupRows(cells: CellSummary[], group: GroupBy): Row[] {
  if (group === 'none') return cells.map((cell) => ({ kind: 'cell', cell }));
  const groups = new Map<string, CellSummary[]>();
  for (const cell of cells) {
    const key = GROUP_KEY[group](cell);
    const members = groups.get(key);
    if (members) members.push(cell);
    else groups.set(key, [cell]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([label, members]): Row[] => [groupHead(label, members), ...members.map((cell): Row => ({ kind: 'cell', cell }))]);
}

/** The cells in the order of the sorted column, by path where it ties. */
export function sortCells(cells: CellSummary[], sort: Sort<string>): CellSummary[] {
  const column = COLUMNS.find((c) => c.key === sort.key) ?? COLUMNS[0];
  const sign = sort.descending ? -1 : 1;
  return [...cells].sort((a, b) => {
    const x = column!.sortValue(a);
    const y = column!.sortValue(b);
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return sign * order || a.path.localeCompare(b.path);
  });
}
