import { describe, expect, it } from 'vitest';
import { compareTable, comparisonsOf, SIGNIFICANT, type BoardEntry } from '../shared/board-comparisons';
import { decideTime } from '../shared/decide';
import { encodeUnits } from '../shared/units';
import { boardSummaries } from './board';

/** Two boards: a 4 x 4 x 3 crossing of harness, model and condition over 40 episodes, and a small second board. */
function entries(): BoardEntry[] {
  const made: BoardEntry[] = [];
  const cell = (boardName: string, harness: string, model: string, condition: string, rate: number) => {
    const units = Array.from({ length: 40 }, (_, i) => ({ id: String(i), status: 'evaluated', success: ((i * 37 + made.length * 11) % 40) / 40 < rate, scored: true }));
    made.push({ path: `/r/${boardName}/${harness}_${model}_${condition}`, boardName, labels: { harness, model, condition, effort: 'default' }, units: encodeUnits(units) });
  };
  for (let h = 0; h < 4; h++) for (let m = 0; m < 4; m++) for (let c = 0; c < 3; c++) cell('big', `h${h}`, `m${m}`, `c${c}`, 0.1 + 0.2 * ((h + m + c) % 4));
  cell('small', 'sdk', 'm', 'bare', 0.2);
  cell('small', 'cli', 'm', 'bare', 0.9);
  return made;
}

describe("the window's board summaries", () => {
  const all = entries();
  const table = compareTable(all);
  const comparisons = comparisonsOf(table);
  const boardOf = new Map(all.map((e) => [e.path, e.boardName]));
  const summaries = boardSummaries(table, boardOf, (path) => (path.includes('small') ? null : 60), 50);

  it('count every comparison of each board and the real ones, and list the ones of lowest Holm p, real first', () => {
    const big = summaries.get('big');
    const ofBig = comparisons.filter((c) => c.a.startsWith('/r/big/'));
    expect(big?.compared).toBe(ofBig.length);
    expect(big?.compared).toBeGreaterThan(50);
    expect(big?.real).toBe(ofBig.filter((c) => c.p_adjusted < SIGNIFICANT).length);
    expect(big?.real).toBeGreaterThan(0);
    expect(big?.comparisons).toHaveLength(50);
    const adjusted = big?.comparisons.map((c) => c.p_adjusted) ?? [];
    expect(adjusted).toEqual([...adjusted].sort((x, y) => x - y));
    // Nothing left out is below the last one listed.
    expect(ofBig.filter((c) => c.p_adjusted < (adjusted.at(-1) as number)).length).toBeLessThanOrEqual(50);
    expect(summaries.get('small')).toMatchObject({ compared: 1, comparisons: [{ a: '/r/small/cli_m_bare', b: '/r/small/sdk_m_bare', field: 'harness' }] });
  });

  it("give each cell its real differences won and lost over all of the board's comparisons, listed or not", () => {
    const big = summaries.get('big');
    const want: Record<string, { won: number; lost: number }> = {};
    for (const c of comparisons.filter((x) => x.a.startsWith('/r/big/') && x.p_adjusted < SIGNIFICANT)) {
      const [winner, loser] = c.only_a > c.only_b ? [c.a, c.b] : [c.b, c.a];
      (want[winner] ??= { won: 0, lost: 0 }).won++;
      (want[loser] ??= { won: 0, lost: 0 }).lost++;
    }
    expect(big?.standing).toEqual(want);
  });

  it("say when each listed comparison would decide at its Holm level, the units its cells' plans have left", () => {
    const m = comparisons.length;
    for (const listed of summaries.get('big')?.comparisons ?? []) {
      const smaller = comparisons.filter((c) => c.p_value < listed.p_value).length;
      const paired = listed.both + listed.only_a + listed.only_b + listed.neither;
      const time = decideTime(listed, 0.05 / (m - smaller), Math.max(0, 60 - paired));
      expect(listed.decide).toEqual(listed.p_adjusted < SIGNIFICANT ? { ...time, further: 0, futile: false } : time);
    }
    // A cell without a plan: searched ten times its paired units, never futile.
    expect(summaries.get('small')?.comparisons[0]?.decide).toMatchObject({ futile: false, searched: 10 * 40 });
  });
});
