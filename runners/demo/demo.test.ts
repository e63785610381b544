import { appendFileSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS } from '../index';
import { context, tempDir } from '../testing';
import { BIGYM_TASK, INTERRUPTED_TASK, REPLAY_SEEDS } from './bigym';
import { runName } from './coding-agent';
import { EVO_RECORD } from './evopolicygym';
import { INSPECT_FOLDER, INSPECT_MODELS } from './inspect';
import { NEMO_AGENTS, NEMO_FOLDER } from './nemo-gym';
import { runDemo } from './index';
import { copyInstantDemo, DEMO_EPOCH_S } from './testing';
import { copyDemo } from './copy';
import { LOOPING_CELL, STUCK_CELL } from './stuck';
import { stuckUnits } from '../../shared/stuck';
import { readCell } from '../read';

/** Width, height and the decoded RGB bytes of a PNG the demo wrote (8-bit RGB, filter 0 rows). */
function decodePng(file: string): { width: number; height: number; rgb: Buffer } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString()).toBe('PNG');
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  let offset = 8;
  const idat: Buffer[] = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    if (bytes.toString('ascii', offset + 4, offset + 8) === 'IDAT') idat.push(bytes.subarray(offset + 8, offset + 8 + length));
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rgb = Buffer.concat(Array.from({ length: height }, (_, y) => raw.subarray(y * (width * 3 + 1) + 1, (y + 1) * (width * 3 + 1))));
  return { width, height, rgb };
}

let tmp: ReturnType<typeof tempDir>;
beforeAll(async () => {
  tmp = tempDir();
  await runDemo(join(tmp.path, 'a'), { speed: 1, instant: true, startEpochS: DEMO_EPOCH_S });
  // Written by the unit run's global setup, in another process.
  copyInstantDemo(join(tmp.path, 'b'));
});
afterAll(() => tmp.remove());

describe('demo runner, instant', () => {
  it('writes ten cells that the adapters read without a problem', async () => {
    const root = join(tmp.path, 'a');
    expect(readdirSync(root).sort()).toEqual([BIGYM_TASK, INTERRUPTED_TASK, EVO_RECORD, NEMO_FOLDER, INSPECT_FOLDER, runName('bare'), runName('full'), runName('bare', 'cli'), runName('full', 'cli')].sort());
    const ctx = context();
    const bigym = await ADAPTERS['bigym-agent'].read(join(root, BIGYM_TASK), ctx);
    expect(bigym.cell).toMatchObject({ state: 'scored', problems: [], budget: { unit: 'steps', total: 101000 } });
    expect(bigym.cell.budget.used).toBeGreaterThan(0);
    const interrupted = await ADAPTERS['bigym-agent'].read(join(root, INTERRUPTED_TASK), ctx);
    expect(interrupted.cell).toMatchObject({ state: 'interrupted', problems: [], board: 'off', board_reasons: ['v001 has no evaluation summary: unscored'] });
    expect(interrupted.cell.budget.used).toBeGreaterThan(8 * 200);
    const evo = await ADAPTERS.evopolicygym.read(join(root, EVO_RECORD), ctx);
    expect(evo.cell).toMatchObject({ state: 'finished', problems: [], budget: { unit: 'episodes', used: 28, total: 30 } });
    // A 2x2 board at std-v2 over 100 episodes: every cell on it.
    for (const harness of ['sdk', 'cli']) {
      for (const condition of ['bare', 'full']) {
        const coding = await ADAPTERS['coding-agent'].read(join(root, runName(condition, harness)), ctx);
        expect(coding.cell).toMatchObject({ state: 'finished', problems: [], board: 'on', budget: { used: 100, total: 100 } });
      }
    }
  });

  it('writes a NeMo Gym collection as the collector does: inputs, rollouts of two agents, a retried and a terminal failure, a matching aggregate', async () => {
    const folder = join(tmp.path, 'a', NEMO_FOLDER);
    expect(readdirSync(folder).sort()).toEqual(['rollouts.jsonl', 'rollouts_aggregate_metrics.json', 'rollouts_failures.jsonl', 'rollouts_materialized_inputs.jsonl']);
    const read = await ADAPTERS['nemo-gym'].read(join(folder, 'rollouts.jsonl'), context());
    expect(read.cell).toMatchObject({ state: 'finished', problems: [], budget: { unit: 'rollouts', used: 48, total: 48 }, episodes: { scored: 47, excluded: 1 } });
    expect(Object.keys(read.agentUnits ?? {})).toEqual([...NEMO_AGENTS].sort());
    const rate = (agent: string) => (read.agentUnits?.[agent] ?? []).filter((u) => u.success).length;
    expect(rate('demo_claude_code_agent')).toBeGreaterThan(rate('demo_codex_agent'));
  });

  it('writes the Inspect logs of two models on one task: finished, every sample over two epochs, paired on <id>#<epoch>', async () => {
    const folder = join(tmp.path, 'a', INSPECT_FOLDER);
    const logs = readdirSync(folder).sort();
    expect(logs).toHaveLength(INSPECT_MODELS.length);
    const reads = await Promise.all(logs.map((name) => ADAPTERS.inspect.read(join(folder, name), context())));
    for (const read of reads) expect(read.cell).toMatchObject({ state: 'finished', problems: [], board: 'on', budget: { unit: 'samples', used: 20, total: 20 } });
    expect(reads.map((r) => r.boardName)).toEqual(['inspect demo_arith', 'inspect demo_arith']);
    expect(reads[0]?.units.map((u) => u.id)).toEqual(reads[1]?.units.map((u) => u.id));
    const rate = (model: string) => reads.find((r) => r.labels.model === model)?.cell.success_rate ?? 0;
    expect(rate('anthropic/demo-sonnet')).toBeGreaterThan(rate('openai/demo-mini'));
  });

  it('is deterministic: two runs in two processes write the same files, byte for byte but the pid in run.json', () => {
    const files = (root: string) => readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(root, f)).isFile()).sort();
    const [a, b] = [join(tmp.path, 'a'), join(tmp.path, 'b')];
    expect(files(a).length).toBeGreaterThan(6000);
    expect(files(b)).toEqual(files(a));
    const withoutPid = (file: string) => readFileSync(file, 'utf8').replace(/"pid": \d+/, '"pid": 0');
    const differ = files(a).filter((f) => (f.endsWith('run.json') ? withoutPid(join(a, f)) !== withoutPid(join(b, f)) : !readFileSync(join(a, f)).equals(readFileSync(join(b, f)))));
    expect(differ).toEqual([]);
    expect(readFileSync(join(a, BIGYM_TASK, 'run.json'), 'utf8')).toContain(`"pid": ${process.pid}`);
  });

  it("is copied for a test with its frames shared and every other file its own: a log appended to in a copy is not in the demo", () => {
    const copy = join(tmp.path, 'c');
    copyDemo(join(tmp.path, 'b'), copy);
    const files = readdirSync(copy, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(copy, f)).isFile());
    const [frames, others] = [files.filter((f) => f.endsWith('.png')), files.filter((f) => !f.endsWith('.png'))];
    expect(frames.every((f) => statSync(join(copy, f)).ino === statSync(join(tmp.path, 'b', f)).ino)).toBe(true);
    expect(others.filter((f) => statSync(join(copy, f)).ino === statSync(join(tmp.path, 'b', f)).ino)).toEqual([]);
    const log = others.find((f) => f.endsWith('.jsonl')) as string;
    const before = readFileSync(join(tmp.path, 'b', log), 'utf8');
    appendFileSync(join(copy, log), '{"written": "in the copy"}\n');
    expect(readFileSync(join(tmp.path, 'b', log), 'utf8')).toBe(before);
  });

  it('ends coding-agent episodes in all five statuses, with throttle pauses, and the two conditions differ', async () => {
    const statuses = new Set<string>();
    let throttles = 0;
    const rates = [];
    for (const condition of ['bare', 'full']) {
      const cell = join(tmp.path, 'a', runName(condition));
      for (const episode of readdirSync(join(cell, 'episodes'))) {
        const events = readFileSync(join(cell, 'episodes', episode, 'trajectory.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
        expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
        statuses.add(events.at(-1).status);
        throttles += events.filter((e) => e.ev === 'throttle').length;
      }
      rates.push((await ADAPTERS['coding-agent'].read(cell, context())).cell.success_rate as number);
    }
    expect([...statuses].sort()).toEqual(['error', 'evaluated', 'infra_error', 'rate_limited', 'timeout']);
    expect(throttles).toBeGreaterThan(0);
    expect(rates[1]).toBeGreaterThan(rates[0] as number);
  });

  it('writes policy versions, a ledger that adds up, evaluations and replays in three 84x84 cameras', () => {
    const cell = join(tmp.path, 'a', BIGYM_TASK);
    const versions = readdirSync(join(cell, 'policies')).sort();
    expect(versions).toEqual(['v001.py', 'v002.py', 'v003.py', 'v004.py']);
    const rates = versions.map((v) => JSON.parse(readFileSync(join(cell, 'eval', v.slice(0, 4), 'summary.json'), 'utf8')).success_rate);
    expect(rates.at(-1)).toBeGreaterThan(rates[0]);
    for (const seed of REPLAY_SEEDS) {
      expect(readdirSync(join(cell, 'replays', 'v004', String(seed))).sort()).toEqual(['head', 'left_wrist', 'right_wrist']);
    }
    const frame = decodePng(join(cell, 'replays', 'v004', String(REPLAY_SEEDS[0]), 'head', '000010.png'));
    expect([frame.width, frame.height]).toEqual([84, 84]);
    expect(new Set(frame.rgb).size).toBeGreaterThan(3);
  });
});

describe('demo runner, live', () => {
  it('grows its files while it runs, and stops when asked', async () => {
    const root = join(tmp.path, 'live');
    const stop = new AbortController();
    const run = runDemo(root, { speed: 40, instant: false, signal: stop.signal });
    const ledger = join(root, BIGYM_TASK, 'ledger.jsonl');
    const size = () => statSync(ledger, { throwIfNoEntry: false })?.size ?? 0;
    await expect.poll(size).toBeGreaterThan(0);
    const first = size();
    await expect.poll(size).toBeGreaterThan(first);
    const summaryFile = join(root, runName('bare'), 'summary.json');
    await expect.poll(() => statSync(summaryFile, { throwIfNoEntry: false }) !== undefined).toBe(true);
    stop.abort();
    expect(await run).toBe('stopped');
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
    expect(summary.finished).toBe(false);
    // A person watching it sees a stuck unit and a looping one, as status says them.
    const now = Date.now();
    const stuckOf = async (name: string) => stuckUnits((await readCell(join(root, name), 'coding-agent', context(now))).running ?? [], now);
    expect((await stuckOf(STUCK_CELL)).map((s) => [s.unit, s.kind])).toEqual([['3', 'stuck']]);
    expect((await stuckOf(LOOPING_CELL)).map((s) => [s.unit, s.kind, s.why])).toEqual([['3', 'looping', 'the same call 6 times in a row: observe_egocentric {}']]);
  });
});
