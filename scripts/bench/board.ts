// npm run bench:board: a generated runs root of 10,000 coding-agent cells at std-v2, 100 episodes each, one
// per crossing of 10 harnesses x 10 models x 10 conditions x 10 efforts (36 one-field neighbours a cell:
// 180,000 comparisons). Prints `board --json` beside `status --json` of the same root, in the same run,
// each with the index cache warm (a second run of each), and the same work done in turn on one thread
// (board-floor.ts: board compares in a worker while it lists and prints); then,
// served to Chromium, the longest main-thread
// task while the Board view opens and while cells change under it, beside the same while the cell list fills.
import { chromium } from '@playwright/test';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { longest, served, stopServed, watchLongTasks } from './long-tasks';
import { measure, median, ROOT, row, type Measured } from './measure';
import { largest } from '../../shared/arrays';

const SIDE = Number(process.env.BENCH_SIDE ?? 10);
const EPISODES = 100;
const STD_V2 = { name: 'std-v2', max_turns: 200, rgb_resolution: 512, max_actions: 500, timeout_s: 2400 };

function generate(root: string): number {
  const planned = Array.from({ length: EPISODES }, (_, i) => i);
  let cells = 0;
  for (let h = 0; h < SIDE; h++)
    for (let m = 0; m < SIDE; m++)
      for (let c = 0; c < SIDE; c++)
        for (let e = 0; e < SIDE; e++) {
          const labels = { harness: `h${h}`, model: `m${m}`, condition: `c${c}`, effort: `e${e}` };
          const name = `std_h${h}_m${m}_c${c}_e${e}`;
          const cell = join(root, `h${h}`, name);
          mkdirSync(cell, { recursive: true });
          writeFileSync(join(cell, 'run.json'), JSON.stringify({ runner: 'coding-agent', run: name, cell: labels, protocol: { ...STD_V2, episodes: planned } }));
          // Success rates that differ by crossing, so some differences are real and most are not.
          const rate = 0.2 + 0.06 * ((h + m + c + e) % 10);
          const episodes = Object.fromEntries(planned.map((i) => [String(i), { status: 'evaluated', success: ((i * 7919 + cells * 31) % 100) / 100 < rate, engaged: true }]));
          writeFileSync(join(cell, 'summary.json'), JSON.stringify({ run: name, finished: true, planned, episodes }));
          cells++;
        }
  return cells;
}

/** One cell's summary written again with one more success: its row changes, and so may its comparisons. */
function rewriteOne(root: string, n: number): void {
  const name = `std_h0_m0_c0_e${n % SIDE}`;
  const planned = Array.from({ length: EPISODES }, (_, i) => i);
  const episodes = Object.fromEntries(planned.map((i) => [String(i), { status: 'evaluated', success: i <= n, engaged: true }]));
  writeFileSync(join(root, 'h0', name, 'summary.json'), JSON.stringify({ run: name, finished: true, planned, episodes }));
}


/** The window on the root: the longest task while its list fills, and while the Board view opens and cells change under it. */
async function windowFigures(root: string, env: NodeJS.ProcessEnv): Promise<{ list: number; board: number; shownMs: number }> {
  const { url, server } = await served([root], env);
  try {
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await watchLongTasks(page);
    await page.goto(url);
    await page.getByText(`${(SIDE ** 4).toLocaleString('en-US')} cells`).first().waitFor({ timeout: 120_000 });
    await page.waitForTimeout(2000);
    const list = await longest(page);
    const started = Date.now();
    await page.getByRole('tab', { name: 'Board' }).click();
    await page.getByRole('table', { name: 'Board coding-agent std-v2' }).getByRole('button').first().waitFor({ timeout: 120_000 });
    const shownMs = Date.now() - started;
    // Cells changing, each change asking for the report again (at most every 2 s): one a second for 6 s.
    for (let i = 0; i < 6; i++) {
      rewriteOne(root, i);
      await page.waitForTimeout(1000);
    }
    const board = await longest(page);
    await browser.close();
    return { list, board, shownMs };
  } finally {
    await stopServed(server);
  }
}

const home = join(tmpdir(), `cellwatch-bench-board-${process.pid}`);
try {
  await measure(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--quiet']);
  const root = join(home, 'runs');
  const cells = generate(root);
  const env = { XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') };
  const cli = (command: string, keep = false) => measure(process.execPath, [join(ROOT, 'out/cli.mjs'), command, '--json', root], { rss: true, env, keep });
  // Each a first time (the index cache written; board's output kept, to count and print from), then three
  // times in turn, the medians kept: their output read and counted, not kept (measure.ts).
  await cli('status');
  const first = await cli('board', true);
  const runs: { status: Measured[]; board: Measured[] } = { status: [], board: [] };
  for (let i = 0; i < 3; i++) {
    runs.status.push(await cli('status'));
    runs.board.push(await cli('board'));
  }
  const [status, board] = [runs.status, runs.board].map((list) => ({ wallMs: median(list.map((r) => r.wallMs)), peakRssMb: largest(list.map((r) => r.peakRssMb ?? 0)) })) as [{ wallMs: number; peakRssMb: number }, { wallMs: number; peakRssMb: number }];
  const comparisons = (JSON.parse(first.stdout) as { comparisons: unknown[] }).comparisons.length;
  // In turn on one thread: a status, then the comparing and the comparisons' printing alone (board-floor.ts).
  const printed = join(home, 'board.json');
  writeFileSync(printed, first.stdout);
  const floorRun = async () => (JSON.parse((await measure(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'scripts/bench/board-floor.ts'), join(env.XDG_DATA_HOME, 'cellwatch', 'index'), printed])).stderr) as { ms: number; comparisons: number }).ms;
  const alone = median([await floorRun(), await floorRun(), await floorRun()]);
  const floorMs = status.wallMs + alone;
  console.log(`${cells} cells at std-v2, ${EPISODES} episodes each; ${comparisons.toLocaleString('en-US')} one-field comparisons; medians of 3 taken in turn\n`);
  console.log(row('status --json (baseline)', `${(status.wallMs / 1000).toFixed(2)} s`, `${status.peakRssMb.toFixed(0)} MB`));
  console.log(row('board --json', `${(board.wallMs / 1000).toFixed(2)} s`, `${(board.wallMs / status.wallMs).toFixed(2)}x status (goal: within 1.5x), ${board.peakRssMb.toFixed(0)} MB, ${(first.stdoutBytes / 1e6).toFixed(0)} MB printed (status ${((runs.status[0] as Measured).stdoutBytes / 1e6).toFixed(0)} MB); runs ${runs.board.map((r) => (r.wallMs / 1000).toFixed(2)).join(', ')} s against ${runs.status.map((r) => (r.wallMs / 1000).toFixed(2)).join(', ')} s`));
  console.log(row('in turn, on one thread', `${(floorMs / 1000).toFixed(2)} s`, `${(floorMs / status.wallMs).toFixed(2)}x status: a status, then ${(alone / 1000).toFixed(2)} s comparing and printing the comparisons alone, the units in memory; board is ${(board.wallMs / floorMs).toFixed(2)}x it`));
  const shown = await windowFigures(root, env);
  console.log(row('window: the list fills (baseline)', `${shown.list.toFixed(0)} ms`, 'longest main-thread task'));
  console.log(row('window: Board view, cells changing', `${shown.board.toFixed(0)} ms`, `longest main-thread task (goal: under 200 ms); its squares ${(shown.shownMs / 1000).toFixed(1)} s after the click`));
} finally {
  rmSync(home, { recursive: true, force: true });
}
