// npm run bench:nemo: a 1 GB NeMo Gym collection made from the fixtures' real rows (and each unit's
// materialized input), summarised (count, mean reward, tokens) cold and after appends, beside `wc -l` and
// a plain Python JSON-lines reader of the rollouts, the least a Node reader does (nemo-floor.ts) and the
// least one that keeps the contract does (--checked), that one on threads, and the same summary with its
// rollouts read on one thread; `cellwatch status` of its root, then with the index cache; the window's
// longest task as it opens the collection; then how soon an appended rollout reaches the index's row.
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { longest, served, stopServed, watchLongTasks } from './long-tasks';
import { measure, median, ROOT, row, type Measured } from './measure';
import { largest } from '../../shared/arrays';

const BYTES = Number(process.env.BENCH_BYTES ?? 1024 ** 3);
const FIXTURES = join(ROOT, 'runners/nemo-gym/fixtures');
// One environment's rows, as a real collection holds (math_with_judge, two harnesses).
const SOURCES = ['responses_api_agents/claude_code_agent/data/example_math_rollouts.jsonl', 'responses_api_agents/hermes_agent/data/example_math_rollouts.jsonl'];
const real = SOURCES.flatMap((file) => readFileSync(join(FIXTURES, file), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>));
const realInputs = SOURCES.flatMap((file) => readFileSync(join(FIXTURES, file.replace('.jsonl', '_materialized_inputs.jsonl')), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>));

const home = mkdtempSync(join(tmpdir(), 'cellwatch-bench-nemo-'));
const file = join(home, 'runs', 'collection.jsonl');
const inputsFile = join(home, 'runs', 'collection_materialized_inputs.jsonl');
const PYTHON = `
import json, sys
n = 0; reward = 0.0; tin = 0; tout = 0
with open(sys.argv[1]) as f:
    for line in f:
        r = json.loads(line)
        n += 1; reward += r.get('reward', 0) or 0
        u = (r.get('response') or {}).get('usage') or {}
        tin += u.get('input_tokens', 0); tout += u.get('output_tokens', 0)
print(n, reward / max(n, 1), tin, tout)
`;

/** Real rows, each its own unit, as the collector writes them (one agent, repeat 0); `from` the rollouts or their inputs. */
function rowText(index: number, from = real): string {
  const base = from[index % from.length] as Record<string, unknown>;
  return `${JSON.stringify({ ...base, _ng_task_index: index, _ng_rollout_index: 0, agent_ref: { name: 'bench_agent' } })}\n`;
}

/** The window on the collection: the longest main-thread task while it opens, and as each tab is shown. */
async function windowFigures(root: string): Promise<Record<string, number>> {
  const { url, server } = await served(['--no-demo', root], { XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data') });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await watchLongTasks(page);
    await page.goto(url);
    const cell = page.getByRole('table', { name: 'Cells' }).getByRole('row', { name: /collection/ });
    await cell.waitFor({ timeout: 120_000 });
    await page.waitForTimeout(1000);
    await longest(page);
    await cell.getByRole('cell').first().click();
    await page.getByRole('tab', { name: 'Tables' }).waitFor({ timeout: 120_000 });
    await page.waitForTimeout(3000);
    const figures: Record<string, number> = { opening: await longest(page) };
    for (const tab of ['Episodes', 'Tables', 'Overview']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.waitForTimeout(2000);
      figures[tab] = await longest(page);
    }
    return figures;
  } finally {
    await browser.close();
    await stopServed(server);
  }
}

try {
  await measure(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--quiet']);
  console.log(`Writing a ${(BYTES / 1024 ** 3).toFixed(2)} GB collection from ${real.length} real rows...`);
  mkdirSync(join(home, 'runs'));
  const out = createWriteStream(file);
  let written = 0;
  let rows = 0;
  while (written < BYTES) {
    let chunk = '';
    for (let i = 0; i < 200; i++) chunk += rowText(rows++);
    written += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  // Each unit's materialized input, written first by the collector: read as the rows are.
  const inputs = createWriteStream(inputsFile);
  for (let i = 0; i < rows; i += 200) {
    let chunk = '';
    for (let j = i; j < Math.min(rows, i + 200); j++) chunk += rowText(j, realInputs);
    if (!inputs.write(chunk)) await once(inputs, 'drain');
  }
  inputs.end();
  await once(inputs, 'finish');

  const wc = await measure('wc', ['-l', file, inputsFile]);
  const python = await measure('python3', ['-c', PYTHON, file]);
  const tsx = (script: string, ...args: string[]) => measure(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'scripts/bench', script), ...args]);
  type Cold = { coldMs: number; peakRssMb: number; count: number; planned: number; meanReward: number; input: number; output: number };
  const lastLine = (measured: Measured) => JSON.parse(measured.stdout.trim().split('\n').at(-1) as string) as unknown;
  // The bare reader, the one that keeps the contract and the cold summary, three times each in turn, each one's median kept.
  type Floor = { ms: number; count: number; meanReward: number; planned: number; malformed: number; repeats: number; missing: number | null };
  const floors: Floor[] = [];
  const checkedFloors: Floor[] = [];
  // The reader keeping the contract on as many threads as cellwatch splits a read among.
  const threads = String(Math.min(4, availableParallelism()));
  const parallelFloors: Floor[] = [];
  const colds: Cold[] = [];
  // The same summary with the rollouts read on one thread, as it is where threads are not at hand (a remote cell).
  const oneThread: Cold[] = [];
  for (let i = 0; i < 3; i++) {
    floors.push(lastLine(await tsx('nemo-floor.ts', file, inputsFile)) as Floor);
    checkedFloors.push(lastLine(await tsx('nemo-floor.ts', file, inputsFile, '--checked')) as Floor);
    parallelFloors.push(lastLine(await tsx('nemo-floor.ts', file, inputsFile, '--checked', '--threads', threads)) as Floor);
    colds.push(lastLine(await tsx('nemo-read.ts', file, String(rows), '--cold')) as Cold);
    oneThread.push(lastLine(await tsx('nemo-read.ts', file, String(rows), '--cold', '--one-thread')) as Cold);
  }
  const medianOf = (runs: Floor[]) => runs.find((f) => f.ms === median(runs.map((x) => x.ms))) as Floor;
  const [floor, checked, parallel] = [medianOf(floors), medianOf(checkedFloors), medianOf(parallelFloors)];
  const cold = colds.find((c) => c.coldMs === median(colds.map((x) => x.coldMs))) as Cold;
  // Then the appends (which grow the file) and the latency, once.
  const result = {
    ...(lastLine(await tsx('nemo-read.ts', file, String(rows))) as { appends: { rows: number; bytes: number; ms: number }[]; latency: { p50: number; p95: number; n: number } }),
    ...cold,
    peakRssMb: largest(colds.map((c) => c.peakRssMb)),
  };
  // `cellwatch status` of the root the collection lies in: the first start reads it, the next ones (medians of 3) find it in the index cache.
  const statusOf = () => measure(process.execPath, [join(ROOT, 'out/cli.mjs'), 'status', '--json', join(home, 'runs')], { env: { XDG_CONFIG_HOME: join(home, 'cli-config'), XDG_DATA_HOME: join(home, 'cli-data') } });
  const firstStatus = await statusOf();
  const cachedStatus = median([(await statusOf()).wallMs, (await statusOf()).wallMs, (await statusOf()).wallMs]);
  const shown = await windowFigures(join(home, 'runs'));
  const [pyCount, pyMean] = python.stdout.trim().split(' ').map(Number);
  if (result.count !== pyCount || Math.abs(result.meanReward - (pyMean as number)) > 1e-9) throw new Error(`cellwatch counted ${result.count} (mean ${result.meanReward}), Python ${pyCount} (mean ${pyMean})`);
  for (const [name, f] of [['the bare reader', floor], ['the checked reader', checked], ['the checked reader on threads', parallel]] as const) {
    if (f.count !== pyCount || Math.abs(f.meanReward - (pyMean as number)) > 1e-9 || f.planned !== rows) throw new Error(`${name} counted ${f.count} (mean ${f.meanReward}, ${f.planned} inputs), Python ${pyCount} (mean ${pyMean})`);
  }
  if ([checked, parallel].some((c) => c.malformed || c.repeats || c.missing)) throw new Error(`a checked reader found malformed rows, repeats or missing units (${JSON.stringify([checked, parallel])}): the bench writes none`);
  if (result.planned !== rows) throw new Error(`cellwatch read ${result.planned} materialized inputs, not ${rows}`);

  console.log('');
  console.log(row('wc -l of both files (baseline)', `${wc.wallMs.toFixed(0)} ms`, `${(written / 1024 ** 2).toFixed(0)} MB of ${rows.toLocaleString('en-US')} rollouts, ${(statSync(inputsFile).size / 1024 ** 2).toFixed(0)} MB of their inputs`));
  console.log(row('python3 json.loads per line (rollouts)', `${python.wallMs.toFixed(0)} ms`, `count ${pyCount}, mean reward ${(pyMean as number).toFixed(4)}`));
  console.log(row('bare Node reader of both (yardstick)', `${floor.ms.toFixed(0)} ms`, `${(floor.ms / wc.wallMs).toFixed(1)}x wc -l: each row's newline, its last usage and the tail from there parsed, nothing else (median of 3: ${floors.map((f) => f.ms.toFixed(0)).join(', ')} ms)`));
  console.log(row('Node reader, contract kept (floor)', `${checked.ms.toFixed(0)} ms`, `${(checked.ms / floor.ms).toFixed(2)}x the bare reader (the goal of 1.5x is ${checked.ms / floor.ms > 1.5 ? 'below' : 'above'} it): each row's brackets and strings followed to its end (a malformed line is a problem), each unit kept once (a repeat is a problem), of both files; else as the bare reader (median of 3: ${checkedFloors.map((f) => f.ms.toFixed(0)).join(', ')} ms)`));
  console.log(row(`  the same on ${threads} threads`, `${parallel.ms.toFixed(0)} ms`, `${(parallel.ms / floor.ms).toFixed(2)}x the bare reader (the goal of 1.5x is ${parallel.ms / floor.ms > 1.5 ? 'below' : 'above'} it): each file cut at newlines into ${threads} parts read at once, each part's rows kept as typed arrays, sent back and summed in file order (median of 3: ${parallelFloors.map((f) => f.ms.toFixed(0)).join(', ')} ms)`));
  console.log(row('cellwatch summary, cold', `${result.coldMs.toFixed(0)} ms`, `${(result.coldMs / wc.wallMs).toFixed(1)}x wc -l (goal <= 3x), ${(result.coldMs / floor.ms).toFixed(1)}x the bare reader (goal <= 1.5x), ${(result.coldMs / checked.ms).toFixed(2)}x the contract's floor, ${(result.coldMs / parallel.ms).toFixed(2)}x it on threads; peak RSS ${result.peakRssMb.toFixed(0)} MB (goal < 300); ${result.input.toLocaleString('en-US')} in / ${result.output.toLocaleString('en-US')} out tokens (median of 3: ${colds.map((c) => c.coldMs.toFixed(0)).join(', ')} ms)`));
  const one = median(oneThread.map((c) => c.coldMs));
  console.log(row('  the same, the rollouts on one thread', `${one.toFixed(0)} ms`, `the read split among ${threads} threads takes ${(result.coldMs / one).toFixed(2)}x it; ${(one / floor.ms).toFixed(1)}x the bare reader; peak RSS ${largest(oneThread.map((c) => c.peakRssMb)).toFixed(0)} MB (median of 3: ${oneThread.map((c) => c.coldMs.toFixed(0)).join(', ')} ms)`));
  console.log(row('status --json of the root, then cached', `${(cachedStatus / 1000).toFixed(2)} s`, `the first start ${(firstStatus.wallMs / 1000).toFixed(2)} s (Node's start and the cold read); the next ones take the unchanged collection from the index cache (median of 3)`));
  for (const a of result.appends) console.log(row(`  after appending ${a.rows} rows (median of 5)`, `${a.ms.toFixed(1)} ms`, `${(a.bytes / 1024).toFixed(0)} kB appended: ${((a.ms * 1024 * 1024) / a.bytes).toFixed(1)} ms per MB`));
  console.log(row('window: the collection opens', `${shown.opening?.toFixed(0)} ms`, `longest main-thread task (0: none over 50 ms; goal 200 ms); then Episodes ${shown.Episodes?.toFixed(0)} ms, Tables ${shown.Tables?.toFixed(0)} ms, Overview ${shown.Overview?.toFixed(0)} ms`));
  console.log(row('appended rollout to its row (local)', `${result.latency.p50.toFixed(0)} ms`, `p50 of ${result.latency.n}; p95 ${result.latency.p95.toFixed(0)} ms (goal 100 ms)`));
} finally {
  rmSync(home, { recursive: true, force: true });
}
