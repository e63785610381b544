import { describe, expect, it } from 'vitest';
import type { CellSummary } from '../../shared/model';
import { quietCells } from './aging';

const cell = (path: string, more: Partial<CellSummary>) => ({ path, state: 'running', changedAt: 0, pausedUntil: null, ...more }) as CellSummary;

describe('cells that time alone changes', () => {
  it('are the moving ones gone quiet past the stale time, and the throttled ones whose pause ran out', () => {
    const now = 20 * 60_000;
    const cells = [
      cell('/quiet', { changedAt: 0 }),
      cell('/recent', { changedAt: now - 1000 }),
      cell('/paused', { state: 'throttled', changedAt: now - 1000, pausedUntil: now + 30_000 }),
      cell('/resumed', { state: 'throttled', changedAt: now - 60_000, pausedUntil: now - 1 }),
      cell('/done', { state: 'finished', changedAt: 0 }),
    ];
    expect(quietCells(cells, now)).toEqual(['/quiet', '/resumed']);
  });
});
