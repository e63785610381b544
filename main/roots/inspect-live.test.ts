// An Inspect log written over whole while it is watched, as Inspect writes one every few samples (and
// caught mid-copy): the index's row and `cellwatch tail --json`, each sample told once.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inspectLog, tempDir } from '../../runners/testing';
import { runCli } from '../cli/run';
import { capture } from '../cli/testing';
import { LocalIndex } from './local-index';
import { ReaderPool } from './pool';

type LogSpec = Parameters<typeof inspectLog>[0];

let pool: ReaderPool;
let tmp: ReturnType<typeof tempDir>;
let index: LocalIndex | undefined;
beforeAll(() => (pool = new ReaderPool(2)));
afterAll(() => pool.close());
beforeEach(() => (tmp = tempDir()));
afterEach(async () => {
  await index?.close();
  index = undefined;
  tmp.remove();
});

const spec = (done: number, status?: LogSpec['status']): LogSpec => ({
  task: 'arith',
  model: 'openai/gpt-4o',
  sampleIds: [1, 2, 3, 4],
  epochs: 1,
  scorer: 'match',
  samples: Array.from({ length: done }, (_, i) => ({ id: i + 1, epoch: 1, scores: { match: i % 2 ? 'I' : 'C' }, completed: `2026-12-01T10:0${i + 1}:00+00:00` })),
  ...(status ? { status } : {}),
});

/** Written as Inspect writes it: a new zip copied over the log (here: renamed over it, or caught half-copied). */
function rewrite(path: string, log: LogSpec, half = false): void {
  const bytes = inspectLog(log);
  const temp = `${path}.tmp`;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(temp, half ? bytes.subarray(0, bytes.length >> 1) : bytes);
  renameSync(temp, path);
}

describe('an Inspect log, live', () => {
  it('reaches its row at each rewrite, keeps its last good reading while caught half-copied, and tail tells each sample once', async () => {
    const path = join(tmp.path, 'logs', '2026-12-01T10-00-00+00-00_arith_x.eval');
    rewrite(path, spec(1));
    index = new LocalIndex(tmp.path, pool, () => undefined, () => undefined);
    await index.start();
    expect(index.list().map((c) => [c.path, c.format, c.state, c.budget.used, c.budget.total])).toEqual([[path, 'inspect', 'running', 1, 4]]);

    const stop = new AbortController();
    const { io, out } = capture();
    const running = runCli(['tail', '--json', path], io, stop.signal);
    await expect.poll(() => out.length).toBe(1);
    rewrite(path, spec(3));
    await expect.poll(() => index?.list()[0]?.budget.used, { interval: 10 }).toBe(3);
    await expect.poll(() => out.length).toBe(3);
    rewrite(path, spec(4), true);
    await expect.poll(() => index?.list()[0]?.problems.map((p) => p.message)).toContainEqual(expect.stringMatching(/^being written/));
    expect(index.list()[0]?.budget.used).toBe(3);
    // The same samples written again, then the end: each sample told once, whatever the rewrites.
    rewrite(path, spec(3));
    rewrite(path, spec(4, 'success'));
    await expect.poll(() => index?.list()[0]?.state).toBe('finished');
    await expect.poll(() => out.length).toBe(4);
    stop.abort();
    expect(await running).toBe(0);
    const lines = out.map((l) => JSON.parse(l));
    // Each at the time it completed, in epoch seconds as every event's `t`.
    const at = (minute: number) => Date.parse(`2026-12-01T10:0${minute}:00Z`) / 1000;
    expect(lines.map((l) => [l.ev, l.episode, l.t, l.value, l.success])).toEqual([
      ['sample', '1#1', at(1), 'C', true],
      ['sample', '2#1', at(2), 'I', false],
      ['sample', '3#1', at(3), 'C', true],
      ['sample', '4#1', at(4), 'I', false],
    ]);
    expect(index.list()[0]).toMatchObject({ problems: [], success_rate: 0.5, episodes: { ended: 4, scored: 4 } });
  });
});
