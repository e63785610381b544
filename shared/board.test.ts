import { describe, expect, it } from 'vitest';
import { boardRows, gridOf, rivalsOf, sideRow } from './board';
import type { Board, CellSummary } from './model';

const labels = { harness: 'sdk', model: 'm1', condition: 'full', effort: 'default' };
const cell = (path: string, board: Board, changedAt: number, rivals: string[] = []) =>
  ({ id: `local:${path}`, host: 'local', path, board, boardName: 'coding-agent std-v2', labels, changedAt, rivals, agents: [] }) as Pick<CellSummary, 'id' | 'host' | 'path' | 'board' | 'boardName' | 'labels' | 'changedAt' | 'rivals' | 'agents'>;

describe('the board grid', () => {
  it('keeps every cell of a crossing, the one on the board first: a newer ui_ run beside it never takes its place', () => {
    const on = cell('/r/std_sdk_m1_full_default', 'on', 1);
    const ui = cell('/r/ui_sdk_m1_full_default', 'ui', 9);
    const off = cell('/r/old/std_sdk_m1_full_default', 'off', 5);
    const grid = gridOf([ui, off, on]);
    expect(grid.columns).toEqual(['m1']);
    expect(grid.at(0, 0)).toEqual([on, ui, off]);
  });

  it('puts the cells that claim one crossing side by side, ahead of the rest', () => {
    const a = cell('/r/a/std_sdk_m1_full_default', 'off', 1, ['/r/b/std_sdk_m1_full_default']);
    const b = cell('/r/b/std_sdk_m1_full_default', 'off', 2, ['/r/a/std_sdk_m1_full_default']);
    const ui = cell('/r/ui_sdk_m1_full_default', 'ui', 3);
    expect(gridOf([ui, a, b]).at(0, 0)).toEqual([b, a, ui]);
  });
});

describe('rivals on a board', () => {
  it('names, for each on-board cell, the others that claim its crossing, on their hosts; off-board and ui cells claim none', () => {
    const local = cell('/r/std_sdk_m1_full_default', 'on', 1);
    const remote = { ...cell('/data/std_sdk_m1_full_default', 'on', 1), id: 'gpu1:/data/std_sdk_m1_full_default', host: 'gpu1' };
    const ui = cell('/r/ui_sdk_m1_full_default', 'ui', 1);
    const other = { ...cell('/r/std_cli_m1_full_default', 'on', 1), labels: { ...labels, harness: 'cli' } };
    const rivals = rivalsOf([local, remote, ui, other]);
    expect([...rivals]).toEqual([
      [local.id, ['gpu1:/data/std_sdk_m1_full_default']],
      [remote.id, ['/r/std_sdk_m1_full_default']],
    ]);
  });
});

describe('a collection of several agents on its board', () => {
  const agent = (name: string, successes: number) => ({
    name, model: 'qwen', episodes: { planned: 10, ended: 10, scored: 10, excluded: 0, successes }, success_rate: successes / 10, reward: { mean: successes / 10, n: 10 },
    tokens: { input: successes * 1_000_000, cached_input: 0, output: 100_000, reasoning: null },
  });
  // qwen at $0.50 a million tokens in, $2 out.
  const listPrice = { input: 0.5, cached_input: 0.05, output: 2 };
  const collection = (path: string, agents: ReturnType<typeof agent>[]) =>
    ({ id: `local:${path}`, host: 'local', path, name: 'rollouts', board: 'on', boardName: 'nemo-gym math', labels: { harness: agents.map((a) => a.name).join(', '), model: 'qwen', condition: null, effort: null }, agents, rivals: [], board_reasons: [], listPrice, cost_source: 'prices.yml: qwen' }) as unknown as CellSummary;

  it("is a square per agent, each its own place and figures; an agent's second collection claims its square", () => {
    const both = collection('/r/math/rollouts.jsonl', [agent('claude', 8), agent('codex', 5)]);
    const rows = boardRows([both]);
    expect(rows.map((r) => [r.id, r.path, r.name, r.labels.harness, r.episodes.successes, r.success_rate, r.cost_usd_estimate, r.of?.cell.id])).toEqual([
      ['local:/r/math/rollouts.jsonl@claude', '/r/math/rollouts.jsonl@claude', 'rollouts@claude', 'claude', 8, 0.8, 4.2, both.id],
      ['local:/r/math/rollouts.jsonl@codex', '/r/math/rollouts.jsonl@codex', 'rollouts@codex', 'codex', 5, 0.5, 2.7, both.id],
    ]);
    // Laid out again, a square is itself; a paired side names it by its id.
    expect(boardRows(rows)).toEqual(rows);
    expect(sideRow([both], 'local:/r/math/rollouts.jsonl@codex')?.success_rate).toBe(0.5);
    expect(sideRow([both], both.id)).toBe(both);
    expect(sideRow([both], 'local:/r/math/rollouts.jsonl@nobody')).toBeUndefined();
    const again = { ...collection('/r/math/claude_again.jsonl', []), labels: { harness: 'claude', model: 'qwen', condition: null, effort: null } } as CellSummary;
    expect([...rivalsOf([both, again])]).toEqual([
      [both.id, ['/r/math/claude_again.jsonl']],
      [again.id, ['/r/math/rollouts.jsonl']],
    ]);
  });
});
