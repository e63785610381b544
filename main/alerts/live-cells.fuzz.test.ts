// LiveCells looks at a live cell only when it changed or when one can have stalled (nextAlertAt); the
// plain way looks at every live cell at every check. Random rows, changes, removals, checks and thresholds
// through both: each alert must first come at the same check, with the same words.
import { describe, expect, it } from 'vitest';
import { prng } from '../../runners/demo/prng';
import { isLive, type CellState, type CellSummary } from '../../shared/model';
import type { RunningUnit } from '../../shared/stuck';
import { LiveCells } from './live-cells';
import { isEnded, stallAlert, stuckAlerts, type Raised } from './rules';

/** The plain way: every cell seen live, at every check. */
class EveryCheck {
  private readonly rows = new Map<string, CellSummary>();
  private readonly live = new Set<string>();
  seen(cell: CellSummary) {
    this.rows.set(cell.id, cell);
    if (isLive(cell.state)) this.live.add(cell.id);
    else if (isEnded(cell.state)) this.live.delete(cell.id);
  }
  removed(id: string) {
    this.rows.delete(id);
    this.live.delete(id);
  }
  check(now: number, stallMs: number): Raised[] {
    return [...this.live].flatMap((id) => {
      const cell = this.rows.get(id) as CellSummary;
      return [stallAlert(cell, now, stallMs), ...stuckAlerts(cell, now)].filter((r): r is Raised => r !== null);
    });
  }
}

/** Seeded picks (the demo's generator): a failing seed can be run again. */
function random(seed: number) {
  const next = prng(seed);
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T };
}

const STATES: CellState[] = ['running', 'throttled', 'draining', 'evaluating', 'stale', 'finished', 'scored', 'crashed'];
const MINUTE = 60_000;

function randomRow(r: ReturnType<typeof random>, id: string, now: number): CellSummary {
  // Times around now, some ahead of it (a host whose clock runs fast), some null.
  const time = () => (r.next() < 0.15 ? null : now + (r.int(40) - 32) * MINUTE + r.int(MINUTE));
  const running: RunningUnit[] = Array.from({ length: r.int(3) }, (_, i) => ({
    unit: `ep${i}`,
    lastEventAt: time(),
    pausedUntil: r.next() < 0.3 ? time() : null,
    repeat: r.next() < 0.4 ? { call: `bash ${r.int(2)}`, times: 1 + r.int(7), since: time() } : null,
  }));
  return { id, name: id, state: r.pick(STATES), changedAt: time(), pausedUntil: r.next() < 0.3 ? time() : null, running, capabilities: { unit: 'episode' } } as unknown as CellSummary;
}

describe('LiveCells against looking at every live cell at every check', () => {
  it('raises each stall and stuck unit at the same check, with the same message', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const r = random(seed);
      const fast = new LiveCells();
      const plain = new EveryCheck();
      const firstFast = new Map<string, string>();
      const firstPlain = new Map<string, string>();
      let now = 1_750_000_000_000;
      let stallMs = (1 + r.int(20)) * MINUTE;
      for (let step = 0; step < 200; step++) {
        const what = r.next();
        const id = `c${r.int(6)}`;
        if (what < 0.3) {
          const row = randomRow(r, id, now);
          fast.seen(row);
          plain.seen(row);
        } else if (what < 0.35) {
          fast.removed(id);
          plain.removed(id);
        } else if (what < 0.38) {
          stallMs = (1 + r.int(20)) * MINUTE;
          fast.lookAgain();
        } else {
          // Checks a second apart, and long quiet spells between some.
          now += r.next() < 0.8 ? 1000 : r.int(30) * MINUTE;
          const keep = (seen: Map<string, string>, raised: Raised[]) => raised.forEach((a) => seen.has(a.key) || seen.set(a.key, `${step} ${a.message}`));
          keep(firstFast, fast.check(now, stallMs));
          keep(firstPlain, plain.check(now, stallMs));
          expect(firstFast, `seed ${seed}, step ${step}`).toEqual(firstPlain);
        }
      }
      expect(firstPlain.size, `seed ${seed}: nothing was raised, the fuzz proves nothing`).toBeGreaterThan(0);
    }
  });
});
