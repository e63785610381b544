// A cell's row, as the list, the board and `cellwatch status` show it: its cell's fields written out one by one; and its event logs' check, told what a watch saw change.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Cell } from '../shared/model';
import { baseCell } from './common/cell';
import { logProblems, summaryOf } from './read';
import { LogCache } from './common/logs';
import { localFs } from './common/fs';
import { context, tempDir, writeTree } from './testing';

/** A cell of the format, every field given a value of its own (a reward only where `reward` is). */
function cellOf(seed: number, reward: boolean): Cell {
  const cell = baseCell(`/runs/cell-${seed}`, reward ? 'nemo-gym' : 'coding-agent', { host: seed % 2 ? 'local' : 'gpu-box' });
  cell.board = seed % 3 ? 'on' : 'off';
  cell.board_reasons = seed % 3 ? [] : [`reason ${seed}`];
  cell.state = seed % 2 ? 'running' : 'finished';
  cell.budget = { unit: 'episodes', used: seed, total: seed + 1 };
  cell.episodes = { planned: seed + 1, ended: seed, scored: seed, excluded: 0, successes: seed >> 1 };
  cell.success_rate = seed % 5 ? 0.5 : null;
  cell.tokens = { input: seed * 10, cached_input: seed, output: seed * 2, reasoning: null };
  cell.cost_usd_estimate = seed / 100;
  cell.cost_usd_billed = seed / 50;
  cell.cost_source = `source ${seed}`;
  cell.problems = [{ file: `file-${seed}`, message: `problem ${seed}`, severity: 'error' }];
  if (reward) cell.reward = { mean: seed / 7, n: seed };
  return cell;
}

describe('summaryOf', () => {
  it('carries every field of the cell, each its own value, and the reward only where the cell has one', () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.boolean(), (seed, reward) => {
        const cell = cellOf(seed, reward);
        const row = summaryOf({ cell, labels: { harness: 'h', model: 'm', condition: null, effort: null }, changedAt: seed, units: [] }, '/runs');
        for (const [key, value] of Object.entries(cell)) expect(row[key as keyof Cell], key).toBe(value);
        expect(JSON.parse(JSON.stringify(row)).reward).toEqual(reward ? { mean: seed / 7, n: seed } : undefined);
        expect([row.root, row.changedAt, row.labels.harness]).toEqual(['/runs', seed, 'h']);
      }),
      { numRuns: 50 },
    );
  });
});

describe('logProblems, told what a watch saw change', () => {
  const line = (found: { file?: string; line?: number | null }[]) => found.map((p) => `${p.file}:${p.line}`);

  it('looks again at a log changed, or below a folder changed, and at one never checked; trusts the rest', async () => {
    const tmp = tempDir();
    try {
      const cell = join(tmp.path, 'c');
      const ok = '{"seq": 0, "ev": "episode_start"}\n';
      writeTree(cell, { 'run.json': { runner: 'coding-agent', run: 'c' }, 'episodes/0000/trajectory.jsonl': ok, 'episodes/0001/trajectory.jsonl': ok });
      const logs = new LogCache(localFs);
      const ctx = context();
      expect(await logProblems(cell, 'coding-agent', ctx, logs)).toEqual([]);
      for (const episode of ['0000', '0001']) appendFileSync(join(cell, 'episodes', episode, 'trajectory.jsonl'), '{broken\n');
      writeTree(cell, { 'episodes/0002/trajectory.jsonl': `${ok}{broken\n` });
      // Nothing said to have changed: only the log never checked is looked at.
      expect(line(await logProblems(cell, 'coding-agent', ctx, logs, new Set()))).toEqual(['episodes/0002/trajectory.jsonl:2']);
      expect(line(await logProblems(cell, 'coding-agent', ctx, logs, new Set([join(cell, 'episodes', '0001', 'trajectory.jsonl')])))).toEqual(['episodes/0001/trajectory.jsonl:2', 'episodes/0002/trajectory.jsonl:2']);
      expect(line(await logProblems(cell, 'coding-agent', ctx, logs, new Set([join(cell, 'episodes', '0000')])))).toEqual(['episodes/0000/trajectory.jsonl:2', 'episodes/0001/trajectory.jsonl:2', 'episodes/0002/trajectory.jsonl:2']);
      // A folder beside one whose name starts the same is not above it.
      appendFileSync(join(cell, 'episodes', '0002', 'trajectory.jsonl'), '{broken\n');
      expect(line(await logProblems(cell, 'coding-agent', ctx, logs, new Set([join(cell, 'episodes', '000')])))).toEqual(['episodes/0000/trajectory.jsonl:2', 'episodes/0001/trajectory.jsonl:2', 'episodes/0002/trajectory.jsonl:2']);
      expect(line(await logProblems(cell, 'coding-agent', ctx, logs))).toEqual(['episodes/0000/trajectory.jsonl:2', 'episodes/0001/trajectory.jsonl:2', 'episodes/0002/trajectory.jsonl:2', 'episodes/0002/trajectory.jsonl:3']);
    } finally {
      tmp.remove();
    }
  });
});
