import { describe, expect, it } from 'vitest';
import { compareTable, comparisonsOf, type BoardEntry } from './board-comparisons';
import type { BoardField } from './board';
import { pairUnits } from './mcnemar';
import { encodeUnits } from './units';
import type { EpisodeUnit } from './model';
import { prng } from '../runners/demo/prng';

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

  it('finds, in order, exactly the pairs a search of every pair finds (a differential fuzzer over 300 random boards)', () => {
    const next = prng(11);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
    const fields = ['harness', 'model', 'condition', 'effort'] as const;
    const order = new Intl.Collator().compare;
    for (let round = 0; round < 300; round++) {
      // Few values a field (one of them none), two boards (the second keeps conditions apart), copies among them.
      const entries = Array.from({ length: 1 + Math.floor(next() * 40) }, (_, i): BoardEntry => {
        const board = pick(['b1', 'b2']);
        const label = () => pick(['x', 'y', 'Z', null]);
        return { path: `/r/${pick(['a', 'B', 'c10', 'c9', 'é'])}${i}`, boardName: board, labels: { harness: label(), model: label(), condition: label(), effort: label() }, apart: board === 'b2' ? ['condition'] : undefined, units: units('10-1') };
      });
      const sorted = [...entries].sort((x, y) => order(x.path, y.path));
      const expected: string[] = [];
      sorted.forEach((x, i) => {
        for (const y of sorted.slice(i + 1)) {
          const differ = fields.filter((f) => x.labels[f] !== y.labels[f]);
          if (x.boardName === y.boardName && differ.length === 1 && !x.apart?.includes(differ[0] as BoardField)) expected.push(`${x.path} ${y.path} ${differ[0]}`);
        }
      });
      expect(compareBoard(entries).map((c) => `${c.a} ${c.b} ${c.field}`)).toEqual(expected);
    }
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

  it("counts each pair as shared/mcnemar's pairUnits does, whatever the ids (a differential fuzzer over 300 random boards)", () => {
    const next = prng(7);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
    // Ids of every shape the board's reading tells apart: small numbers (read as numbers), leading zeros,
    // more than six digits, digits then letters, task ids, empty, and a tab or newline (written as a space).
    const idOf = (i: number): string =>
      pick([String(i), String(i), `0${i}`, String(1_000_000 + i), `${i}a`, `task-${i}`, i === 0 ? '' : `t\t${i}`, `n\n${i}`, `é${i}`, String(i % 7)]);
    for (let round = 0; round < 300; round++) {
      const shapes = Array.from({ length: 1 + Math.floor(next() * 80) }, (_, i) => idOf(i));
      const cellUnits = (): EpisodeUnit[] => {
        const seen = new Set<string>();
        return shapes.flatMap((id): EpisodeUnit[] => {
          // One unit one outcome: an id the board would read as another is left out, as the readers leave a repeat.
          const written = id.replace(/[\t\n]/g, ' ');
          const r = next();
          if (r < 0.15 || seen.has(written)) return [];
          seen.add(written);
          return [{ id: written, status: r < 0.25 ? 'rate_limited' : 'evaluated', success: r < 0.3 ? null : r > 0.6, scored: r >= 0.25 }];
        });
      };
      const cells = Array.from({ length: 2 + Math.floor(next() * 4) }, (_, m) => ({ model: `m${m}`, units: cellUnits() }));
      const entries = cells.map((c): BoardEntry => ({ path: `/r/${c.model}`, boardName: 'b', labels: labels('sdk', c.model), units: encodeUnits(c.units) }));
      const compared = compareBoard(entries);
      expect(compared).toHaveLength((cells.length * (cells.length - 1)) / 2);
      for (const c of compared) {
        const [x, y] = [c.a, c.b].map((path) => (cells.find((cell) => `/r/${cell.model}` === path) as { units: EpisodeUnit[] }).units) as [EpisodeUnit[], EpisodeUnit[]];
        const paired = pairUnits(x, y, true);
        if (!paired.ok) throw new Error('a live pairing is never refused');
        const { both, only_a, only_b, neither, p_value } = paired.table;
        expect(c).toMatchObject({ both, only_a, only_b, neither, left_out: paired.table.undecided.length });
        expect(c.p_value).toBe(p_value);
      }
    }
  });
});
