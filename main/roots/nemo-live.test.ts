// A NeMo Gym collection growing while it is watched: the index's row, `cellwatch tail --json`, here
// (the SSH side is in ssh/remote.test.ts).
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CellsDelta } from '../../shared/model';
import { jsonl, tempDir } from '../../runners/testing';
import { runCli } from '../cli/run';
import { capture } from '../cli/testing';
import { LocalIndex } from './local-index';
import { ReaderPool } from './pool';

const REAL = join(import.meta.dirname, '../../runners/nemo-gym/fixtures/responses_api_agents/claude_code_agent/data/example_math_rollouts');
const rows = readFileSync(`${REAL}.jsonl`, 'utf8').trim().split('\n');

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

describe('a NeMo Gym collection, live', () => {
  it('is found among the folders of a root, and each appended rollout reaches its row', async () => {
    const runs = join(tmp.path, 'runs', 'math');
    const path = join(runs, 'claude.jsonl');
    writeFileSync(join(tmp.path, 'notes.jsonl'), jsonl([{ note: 'not a collection' }]));
    mkdirSync(runs, { recursive: true });
    writeFileSync(join(runs, 'claude_materialized_inputs.jsonl'), readFileSync(`${REAL}_materialized_inputs.jsonl`, 'utf8'));
    const deltas: CellsDelta[] = [];
    index = new LocalIndex(tmp.path, pool, (d) => deltas.push(d), () => undefined);
    await index.start();
    expect(index.list().map((c) => [c.path, c.state, c.budget.used, c.budget.total])).toEqual([[path, 'running', 0, 5]]);
    for (const [i, line] of rows.entries()) {
      appendFileSync(path, `${line}\n`);
      await expect.poll(() => index?.list()[0]?.budget.used, { interval: 10 }).toBe(i + 1);
    }
    expect(index.list()[0]).toMatchObject({ state: 'finished', success_rate: 0.2, reward: { mean: 0.2, n: 5 } });
    // The failures sidecar is the cell's too: a row there changes the cell, not the root.
    writeFileSync(join(runs, 'claude_failures.jsonl'), 'not json\n');
    await expect.poll(() => index?.list()[0]?.problems.map((p) => `${p.file}:${p.line}`)).toEqual(['claude_failures.jsonl:1']);
    rmSync(runs, { recursive: true });
    await expect.poll(() => index?.list().length).toBe(0);
  });

  it('tails one line per rollout and per failure, each file in its order, never the conversation', async () => {
    const path = join(tmp.path, 'c.jsonl');
    writeFileSync(path, `${rows[0]}\n`);
    const stop = new AbortController();
    const { io, out } = capture();
    const running = runCli(['tail', '--json', path], io, stop.signal);
    await expect.poll(() => out.length).toBe(1);
    appendFileSync(path, `${rows.slice(1, 3).join('\n')}\n`);
    // Two files are two streams, each in its own order: the failure is written once the rollouts are out.
    await expect.poll(() => out.length).toBe(3);
    appendFileSync(join(tmp.path, 'c_failures.jsonl'), `${JSON.stringify({ _ng_task_index: 9, _ng_rollout_index: 0, _ng_failure_class: 'model_error', _ng_failure_terminal: true })}\n`);
    await expect.poll(() => out.length).toBe(4);
    stop.abort();
    expect(await running).toBe(0);
    const lines = out.map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.ev, l.episode, l.reward ?? l.class])).toEqual([
      ['rollout', '1#0', 0],
      ['rollout', '2#0', 0],
      ['rollout', '4#0', 1],
      ['rollout_failed', '9#0', 'model_error'],
    ]);
    expect(Object.keys(lines[0])).toEqual(['cell', 'episode', 'seq', 't', 'ev', 'reward', 'agent']);
  });
});
