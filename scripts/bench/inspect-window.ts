// npm run bench:inspect-window: an Inspect log in the window (serve mode, Chromium). A running log is written over
// whole with one more sample, as Inspect flushes (a new file renamed over the log), 20 times: the time from the
// rename to the list row counting the new sample, on the page's own clock, beside `tail -F` seeing a line appended
// to a file in the same run. Then a log whose one sample is 100 MB: the longest main-thread task while its
// transcript opens. Goals (issue #46): a new sample on screen within 100 ms; no task over 100 ms.
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { evalMembers, zipOf, type LogSample } from '../../runners/inspect/write';
import { longest, served, stopServed, watchLongTasks } from './long-tasks';
import { measure, median, ROOT, row } from './measure';

const REWRITES = 20;
const FIRST = 30;
const PLANNED = FIRST + REWRITES;
const NAME = '2026-12-01T10-00-00+00-00_arith_bench';

const sample = (i: number, messages?: unknown[]): LogSample => ({ id: i + 1, epoch: 1, scores: { match: i % 3 ? 'C' : 'I' }, usage: { 'openai/demo-mini': { input_tokens: 60, output_tokens: 3 } }, ...(messages ? { messages } : {}) });
const logBytes = (samples: LogSample[], planned = PLANNED) => zipOf(evalMembers({ task: 'arith', model: 'openai/demo-mini', sampleIds: Array.from({ length: planned }, (_, i) => i + 1), epochs: 1, scorer: 'match', samples }));

/** Writes the log as Inspect flushes it: a whole new zip beside it, renamed over it. Returns when the rename was done (epoch ms). */
function flush(path: string, bytes: Buffer): number {
  writeFileSync(`${path}.tmp`, bytes);
  renameSync(`${path}.tmp`, path);
  return Date.now();
}

/** `tail -F` of a file: the time from each append to the line on its stdout (ms), the baseline. */
async function tailBaseline(dir: string): Promise<number[]> {
  const file = join(dir, 'tail.log');
  writeFileSync(file, '');
  const tail = spawn('tail', ['-F', '-n', '0', file], { stdio: ['ignore', 'pipe', 'ignore'] });
  const lines = createInterface({ input: tail.stdout });
  const seen: number[] = [];
  lines.on('line', () => seen.push(Date.now()));
  await new Promise((r) => setTimeout(r, 500));
  const delays: number[] = [];
  for (let i = 0; i < REWRITES; i++) {
    const wrote = Date.now();
    appendFileSync(file, `line ${i}\n`);
    while (seen.length <= i) await new Promise((r) => setTimeout(r, 2));
    delays.push((seen[i] as number) - wrote);
    await new Promise((r) => setTimeout(r, 200));
  }
  tail.kill();
  return delays;
}

const home = join(tmpdir(), `cellwatch-bench-inspect-window-${process.pid}`);
try {
  await measure(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--quiet']);
  const logs = join(home, 'logs');
  mkdirSync(logs, { recursive: true });
  const path = join(logs, `${NAME}.eval`);
  const samples = Array.from({ length: FIRST }, (_, i) => sample(i));
  flush(path, logBytes(samples));
  const big = join(home, 'big');
  mkdirSync(big);
  // One sample whose message is 100 MB of text: a long agent transcript, or an attachment inlined.
  const huge = 'x'.repeat(99) + '\n';
  writeFileSync(join(big, '2026-12-01T10-00-00+00-00_huge_bench.eval'), logBytes([sample(0, [{ role: 'user', content: 'Solve it.' }, { role: 'assistant', content: huge.repeat(1_000_000) }])], 1));

  const env = { XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), HOME: home };
  const { url, server } = await served([logs, big], env);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  let delays: number[] = [];
  let opening = 0;
  let openedMs = 0;
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await watchLongTasks(page);
    await page.goto(url);
    const rowOf = page.getByRole('table', { name: 'Cells' }).getByRole('row', { name: /arith_bench/ });
    await rowOf.first().waitFor({ timeout: 60_000 });
    // Each time the row's text changes, the page notes when (its own wall clock) and what it says.
    await page.evaluate(() => {
      const seen: [number, string][] = [];
      (window as unknown as { seen: typeof seen }).seen = seen;
      new MutationObserver(() => {
        const row = [...document.querySelectorAll('[role="row"]')].find((r) => r.textContent?.includes('arith_bench'));
        if (row) seen.push([Date.now(), row.textContent ?? '']);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    for (let i = FIRST; i < PLANNED; i++) {
      samples.push(sample(i));
      const wrote = flush(path, logBytes(samples));
      const want = `${i + 1}/${PLANNED}`;
      const at = await page.waitForFunction((w) => (window as unknown as { seen: [number, string][] }).seen.find(([, text]) => text.includes(w))?.[0], want, { timeout: 30_000, polling: 5 });
      delays.push(((await at.jsonValue()) as number) - wrote);
      await page.waitForTimeout(300);
    }
    // The 100 MB sample's transcript, from its cell's Episodes.
    await longest(page);
    const started = Date.now();
    await page.goto(`${url}#/cell/${encodeURIComponent(`local:${join(big, '2026-12-01T10-00-00+00-00_huge_bench.eval')}`)}?tab=transcript&episode=${encodeURIComponent('1#1')}`);
    await page.getByRole('region', { name: /^Transcript of 1#1/ }).getByText(/Solve it\.|too large/).first().waitFor({ timeout: 120_000 });
    openedMs = Date.now() - started;
    await page.waitForTimeout(1500);
    opening = await longest(page);
  } finally {
    await browser.close();
    await stopServed(server);
  }
  const tail = await tailBaseline(home);
  const p = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] as number;
  delays = delays.map((d) => Math.max(0, d));
  console.log(`an Inspect log written over whole ${REWRITES} times, one more sample each, and a log of one 100 MB sample\n`);
  console.log(row('tail -F, a line appended (baseline)', `${median(tail)} ms`, `p95 ${p(tail, 0.95)} ms`));
  console.log(row('a rewrite to its sample counted', `${median(delays)} ms`, `p95 ${p(delays, 0.95)} ms, the list row on screen (goal: within 100 ms)`));
  console.log(row('a 100 MB sample: its transcript', `${opening.toFixed(0)} ms`, `longest main-thread task (goal: none over 100 ms); shown ${(openedMs / 1000).toFixed(1)} s after it was asked for`));
} finally {
  rmSync(home, { recursive: true, force: true });
}
