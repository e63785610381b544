import { describe, expect, it } from 'vitest';
import { append } from '../../shared/arrays';
import { Collector } from './collection';
import type { NemoRow } from './row-block';
import { blockOf } from './testing';

const files = { rollouts: 'c.jsonl', failures: 'c_failures.jsonl' };
let line = 0;
function row(agent: string | null, task: number, repeat: number, reward: unknown, failureClass: string | null = null): NemoRow {
  line++;
  return { line, offset: line * 100, task, repeat, attempt: null, agent, reward, usage: null, model: null, failureClass, terminal: failureClass !== null, fields: {}, largeFields: {}, observed: false };
}

/** A small random number generator, seeded: the same rows every run. */
function random(seed: number) {
  return () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

describe('a collection counted as its files grow', () => {
  it('keeps each unit list as a fresh count of the same rows gives it, whatever order and size the appends come in', () => {
    const next = random(7);
    const rollouts: NemoRow[] = [];
    const failures: NemoRow[] = [];
    // The files' blocks as the reader's cache hands them: one more each read, for the rows appended since.
    const [rolloutBlocks, failureBlocks] = [[] as ReturnType<typeof blockOf>, [] as ReturnType<typeof blockOf>];
    const kept = new Collector(files);
    for (let step = 0; step < 40; step++) {
      // Appends of 1 to 150 rows (a few go in place, many are merged), tasks in any order, a second agent from step 10,
      // failures now and then, some later given their rollout.
      const count = step % 7 === 0 ? 150 : 1 + Math.floor(next() * 5);
      const [rolloutsBefore, failuresBefore] = [rollouts.length, failures.length];
      for (let i = 0; i < count; i++) {
        const agent = step >= 10 && next() < 0.5 ? 'hermes' : 'claude';
        const task = Math.floor(next() * 400);
        if (next() < 0.1) failures.push(row(agent, task, 0, null, 'timeout'));
        else rollouts.push(row(agent, task, Math.floor(next() * 3), next() < 0.5 ? 1 : 0));
      }
      append(rolloutBlocks, blockOf(rollouts.slice(rolloutsBefore)));
      append(failureBlocks, blockOf(failures.slice(failuresBefore)));
      kept.update(null, rolloutBlocks, failureBlocks);
      const fresh = new Collector(files);
      const counted = fresh.update(null, blockOf(rollouts), blockOf(failures));
      for (const agent of [undefined, 'claude', 'hermes']) expect(kept.units(agent)).toEqual(fresh.units(agent));
      expect(kept.units().map((u) => u.id)).toEqual([...kept.units().map((u) => u.id)].sort((a, b) => {
        const [aa, at, ar] = /^(?:(\w+)\/)?(\d+)#(\d+)$/.exec(a)?.slice(1) ?? [];
        const [ba, bt, br] = /^(?:(\w+)\/)?(\d+)#(\d+)$/.exec(b)?.slice(1) ?? [];
        return (aa ?? '').localeCompare(ba ?? '') || Number(at) - Number(bt) || Number(ar) - Number(br);
      }));
      expect(counted.tasks.map((t) => t.task)).toEqual([...new Set(rollouts.map((r) => r.task as number))].sort((a, b) => a - b));
    }
  });

  it('counts the planned units still missing as rollouts and terminal failures arrive', () => {
    const inputs = [row('a', 0, 0, null), row('a', 0, 1, null), row('a', 1, 0, null)];
    const collector = new Collector(files);
    expect(collector.update(inputs, [], []).missing).toBe(3);
    const rollouts = blockOf([row('a', 0, 0, 1)]);
    expect(collector.update(inputs, rollouts, []).missing).toBe(2);
    // A repeated rollout and a unit's second terminal failure count once.
    append(rollouts, blockOf([row('a', 0, 0, 1)]));
    const failures = blockOf([row('a', 1, 0, null, 'crash'), row('a', 1, 0, null, 'crash')]);
    expect(collector.update(inputs, rollouts, failures).missing).toBe(1);
    append(rollouts, blockOf([row('a', 0, 1, 0)]));
    expect(collector.update(inputs, rollouts, failures).missing).toBe(0);
  });

  it('tells units apart whatever their numbers: huge tasks, many repeats, negative indices, several agents', () => {
    // Units that one product of task and repeat would confuse (0#4096 and 1#0), and units past it.
    const units: [string | null, number, number][] = [
      ['a', 0, 4096], ['a', 1, 0], ['a', 2 ** 31, 0], ['a', 2 ** 31 - 1, 4095], ['a', -1, 0], ['a', 0, -1], ['a', 2 ** 40, 7],
      ['b', 0, 4096], ['b', 1, 0], [null, 1, 0], ['a', 1, 0],
    ];
    const second = line + 2;
    const counted = new Collector(files).update(null, blockOf(units.map(([agent, task, repeat]) => row(agent, task, repeat, 1))), []);
    expect(counted.done).toBe(10);
    expect(counted.integrity.map((p) => p.message)).toEqual([`repeats rollout 1#0 of a (first at line ${second}); not counted`]);
  });
});
