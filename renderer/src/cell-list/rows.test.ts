import { describe, expect, it } from 'vitest';
import type { CellSummary } from '../../../shared/model';
import { groupRows, sortCells } from './rows';

const cell = (name: string, host: string, state: CellSummary['state'], scored: number, successes: number) =>
  ({ id: `${host}:/r/${name}`, name, host, path: `/r/${name}`, format: 'coding-agent', state, labels: { model: null }, episodes: { scored, successes } }) as unknown as CellSummary;

describe("the cell list's rows", () => {
  const cells = [cell('a', 'gpu2', 'running', 10, 5), cell('b', 'local', 'finished', 4, 4), cell('c', 'gpu2', 'stale', 10, 0)];

  it('puts a header over each group, groups by name, with its count, running cells and success over its scored episodes', () => {
    expect(groupRows(cells, 'host').map((r) => (r.kind === 'group' ? `${r.label} ${r.count} ${r.running} ${r.successRate}` : r.cell.name))).toEqual(['gpu2 2 1 0.25', 'a', 'c', 'local 1 0 1', 'b']);
    expect(groupRows(cells, 'none').map((r) => r.kind)).toEqual(['cell', 'cell', 'cell']);
  });

  it('sorts by the column asked for, by path where it ties, either way', () => {
    expect(sortCells(cells, { key: 'name', descending: true }).map((c) => c.name)).toEqual(['c', 'b', 'a']);
    expect(sortCells([...cells].reverse(), { key: 'format', descending: false }).map((c) => c.name)).toEqual(['a', 'b', 'c']);
    // A column no longer there (a stale preference) sorts by the first, the name.
    expect(sortCells([...cells].reverse(), { key: 'no such column', descending: false }).map((c) => c.name)).toEqual(['a', 'b', 'c']);
  });
});
