import { describe, expect, it } from 'vitest';
import { compareTable, comparisonsOf, type BoardEntry } from './board-comparisons';
import { pairUnits } from './mcnemar';
import { encodeUnits } from './units';
import type { EpisodeUnit } from './model';

const compareBoard = (entries: BoardEntry[]) => comparisonsOf(compareTable(entries));
const labels = (harness: string, model: string, condition = 'bare', effort = 'default') => ({ harness, model, condition, effort });
const units = (outcomes: string): string => encodeUnits([...outcomes].map((o, i): EpisodeUnit => ({ id: String(i), status: o === '-' ? 'rate_limited' : 'evaluated', success: o === '1', scored: o !== '-' })));

describe('the comparison set', () => {
  it('pairs exactly the cells that differ in one field, on one board', () => {
    const entry = (path: string, l: BoardEntry['labels'], board = 'coding-agent std-v2'): BoardEntry => ({ path, boardName: board, labels: l, units: units('1010') });
    const pairs = compareBoard([
      entry('/r/sdk_a', labels('sdk', 'a')),
      entry('/r/cli_a', labels('cli', 'a')),
      entry('/r/sdk_b', labels('sdk', 'b')),
      entry('/r/cli_b', labels('cli', 'b')),
      entry('/r/sdk_a_full', labels('sdk', 'a', 'full')),
      entry('/r/other_board', labels('sdk', 'a'), 'coding-agent std-v1'),
    ]).map((c) => `${c.a} ${c.b} ${c.field}`);
    expect(pairs.sort()).toEqual(['/r/cli_a /r/cli_b model', '/r/cli_a /r/sdk_a harness', '/r/cli_b /r/sdk_b harness', '/r/sdk_a /r/sdk_a_full condition', '/r/sdk_a /r/sdk_b model'].sort());
  });

  it("never compares across a field its board keeps apart (bigym's tools ablation beside strict), and still within it", () => {
    const entry = (path: string, l: BoardEntry['labels']): BoardEntry => ({ path, boardName: 'bigym-agent move_plate', labels: l, apart: ['condition'], units: units('1010') });
    const pairs = compareBoard([
      entry('/r/strict_a', labels('codex', 'a', 'strict')),
      entry('/r/tools_a', labels('codex', 'a', 'tools')),
      entry('/r/tools_b', labels('codex', 'b', 'tools')),
    ]).map((c) => `${c.a} ${c.b} ${c.field}`);
    expect(pairs).toEqual(['/r/tools_a /r/tools_b model']);
  });

  it('pairs numbered episodes by their id as written: 17 and 017 are two episodes, task ids beside numbers too', () => {
    const unitsOf = (ids: string[], outcome: '1' | '0') => encodeUnits(ids.map((id): EpisodeUnit => ({ id, status: 'evaluated', success: outcome === '1', scored: true })));
    const a: BoardEntry = { path: '/r/a', boardName: 'b', labels: labels('sdk', 'x'), units: unitsOf(['17', 'task#2', '3'], '1') };
    const b: BoardEntry = { path: '/r/b', boardName: 'b', labels: labels('cli', 'x'), units: unitsOf(['017', 'task#2', '3'], '0') };
    expect(compareBoard([a, b])[0]).toMatchObject({ only_a: 2, only_b: 0, both: 0, neither: 0, left_out: 2 });
  });

  it('tests over the episodes both scored, says how many were left out, and adjusts over the board', () => {
    const a: BoardEntry = { path: '/r/a', boardName: 'b', labels: labels('sdk', 'x'), units: units('1111111111-1') };
    const b: BoardEntry = { path: '/r/b', boardName: 'b', labels: labels('cli', 'x'), units: units('0000000000') };
    const c: BoardEntry = { path: '/r/c', boardName: 'b', labels: labels('sdk', 'y'), units: units('1111111110') };
    const [ab, ac] = compareBoard([a, b, c]);
    // a and b: 10 discordant pairs, all for a (episodes 10 and 11 ended on a only): p = 2 / 2^10.
    expect(ab).toMatchObject({ a: '/r/a', b: '/r/b', field: 'harness', both: 0, only_a: 10, only_b: 0, neither: 0, left_out: 2 });
    expect(ab?.p_value).toBeCloseTo(2 / 1024, 12);
    expect(ac).toMatchObject({ field: 'model', only_a: 1, only_b: 0, p_value: 1 });
    // Holm over the two: the smaller p doubled, the larger kept at 1.
    expect(ab?.p_adjusted).toBeCloseTo(4 / 1024, 12);
    expect(ac?.p_adjusted).toBe(1);
  });

  it("counts each pair as shared/mcnemar's pairUnits does, over ids past a word of 32 and units absent or unscored on either side", () => {
    // A small deterministic generator: the same cells every run.
    let seed = 7;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const cellUnits = () =>
      Array.from({ length: 90 }, (_, i): EpisodeUnit | null => {
        const r = next();
        return r < 0.1 ? null : { id: i % 3 === 0 ? `task-${i}` : String(i), status: r < 0.2 ? 'rate_limited' : 'evaluated', success: r > 0.55, scored: r >= 0.2 };
      }).filter((u): u is EpisodeUnit => u !== null);
    const cells = ['a', 'b', 'c'].map((model) => ({ model, units: cellUnits() }));
    const entries = cells.map((c): BoardEntry => ({ path: `/r/${c.model}`, boardName: 'b', labels: labels('sdk', c.model), units: encodeUnits(c.units) }));
    const compared = compareBoard(entries);
    expect(compared).toHaveLength(3);
    for (const c of compared) {
      const [x, y] = [c.a, c.b].map((path) => (cells.find((cell) => `/r/${cell.model}` === path) as { units: EpisodeUnit[] }).units) as [EpisodeUnit[], EpisodeUnit[]];
      const paired = pairUnits(x, y, true);
      if (!paired.ok) throw new Error('a live pairing is never refused');
      const { both, only_a, only_b, neither, p_value } = paired.table;
      expect(c).toMatchObject({ both, only_a, only_b, neither, left_out: paired.table.undecided.length });
      expect(c.p_value).toBe(p_value);
    }
  });
});
