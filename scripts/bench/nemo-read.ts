// Child of bench:nemo: the adapter's summary of a big collection, cold and after appends (reading on from
// where it was), then the index's latency from an appended line to its row, on a small collection; with
// --cold, the cold summary alone.
import { peakKb } from './peak-rss.mjs';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADAPTERS, JsonReader, syncLocalFs } from '../../runners';
import { JsonlCache, KEPT_LOGS } from '../../runners/common/jsonl-cache';
import { lineThreads } from '../../main/roots/line-threads';
import { workersScript } from '../../main/roots/worker-script';
import { LocalIndex } from '../../main/roots/local-index';
import { ReaderPool } from '../../main/roots/pool';

const [file, rowsText] = process.argv.slice(2) as [string, string];
let rows = Number(rowsText);
// Read as the read workers read a local cell: with synchronous file calls.
const fs = syncLocalFs();
// With threads for the parts of a long read, as a read worker has (--one-thread: without them). The
// threads' script is bundled here first: the built app loads it from out/.
const split = process.argv.includes('--one-thread') ? undefined : lineThreads(() => script);
const script = workersScript();
const ctx = { fs, json: new JsonReader(fs), now: Date.now(), host: 'local', jsonl: new JsonlCache(KEPT_LOGS, split) };
const adapter = ADAPTERS['nemo-gym'];
const started = performance.now();
const cold = await adapter.read(file, ctx);
const coldMs = performance.now() - started;
const peakRssMb = peakKb() / 1024;
const summary = { coldMs, peakRssMb, count: cold.cell.reward?.n, planned: cold.cell.budget.total, meanReward: cold.cell.reward?.mean, input: cold.cell.tokens.input, output: cold.cell.tokens.output };
// --cold: that alone, the file left as it is (the bench takes the median of a few).
if (process.argv.includes('--cold')) {
  console.log(JSON.stringify(summary));
  process.exit(0);
}

const lineOf = (i: number) => `${JSON.stringify({ _ng_task_index: i, _ng_rollout_index: 0, agent_ref: { name: 'bench_agent' }, response: { output: [{ type: 'message', content: [{ type: 'output_text', text: 'x'.repeat(8000) }] }], usage: { input_tokens: 10, output_tokens: 5 } }, reward: 1 })}\n`;
// Each size appended five times, its median taken: one read alone can meet a collection of the cold read's garbage.
const appends = [];
for (const n of [10, 100, 1000]) {
  const times: number[] = [];
  let bytes = 0;
  for (let repeat = 0; repeat < 5; repeat++) {
    let text = '';
    for (let i = 0; i < n; i++) text += lineOf(rows++);
    appendFileSync(file, text);
    bytes = Buffer.byteLength(text);
    const t = performance.now();
    const after = await adapter.read(file, ctx);
    times.push(performance.now() - t);
    if (after.cell.budget.used !== rows) throw new Error(`after appending, ${after.cell.budget.used} rows, not ${rows}`);
  }
  appends.push({ rows: n, bytes, ms: times.sort((a, b) => a - b)[2] as number });
}

// Latency: a small collection under a watching index; each appended rollout timed to its row.
const home = mkdtempSync(join(tmpdir(), 'cellwatch-bench-nemo-live-'));
const live = join(home, 'c.jsonl');
writeFileSync(live, lineOf(0));
const pool = new ReaderPool(1);
let waiting: { used: number; resolve: () => void } | undefined;
const index = new LocalIndex(home, pool, (delta) => {
  const row = [...delta.added, ...delta.changed].find((c) => c.path === live);
  if (row && waiting && row.budget.used >= waiting.used) waiting.resolve();
}, () => undefined);
await index.start();
const times: number[] = [];
for (let i = 1; i <= 30; i++) {
  const reached = new Promise<void>((resolve) => (waiting = { used: i + 1, resolve }));
  const t = performance.now();
  appendFileSync(live, lineOf(i));
  await reached;
  times.push(performance.now() - t);
  await new Promise((r) => setTimeout(r, 20));
}
await index.close();
await pool.close();
rmSync(home, { recursive: true, force: true });
times.sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] as number;
console.log(JSON.stringify({ ...summary, appends, latency: { p50: at(0.5), p95: at(0.95), n: times.length } }));
