// npm run bench:open: the longest main-thread task (a long-task observer in Chromium, serve mode) while a
// 4,000-episode coding-agent cell opens on its Overview, and while the Overview is shown again after the
// Episodes tab, beside the same for a 30-episode cell in the same run (goal: under 200 ms). Medians of 3.
import { chromium, type Page } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { longest, served, watchLongTasks } from './long-tasks';
import { measure, median, ROOT, row } from './measure';

const RUNS = 3;
const home = mkdtempSync(join(tmpdir(), 'cellwatch-bench-open-'));
const runs = join(home, 'runs');

function cell(name: string, count: number): void {
  const dir = join(runs, name);
  mkdirSync(dir, { recursive: true });
  const planned = Array.from({ length: count }, (_, i) => i);
  const episodes = Object.fromEntries(planned.map((i) => [String(i), { status: 'ended', success: i % 3 === 0, engaged: true, tool_calls: 5 + (i % 17), actions: 3 + (i % 11), wall_s: 20 + (i % 30) }]));
  writeFileSync(join(dir, 'run.json'), JSON.stringify({ runner: 'coding-agent', run: name, protocol: { episodes: planned } }));
  writeFileSync(join(dir, 'summary.json'), JSON.stringify({ planned, episodes }));
}

/** The longest task while the cell opens, and while its Overview is shown again. */
async function open(page: Page, url: string, name: string): Promise<[number, number]> {
  await page.goto(url);
  await page.getByRole('button', { name }).waitFor();
  await page.waitForTimeout(1000);
  await longest(page);
  await page.getByRole('button', { name }).click();
  await page.getByRole('figure').first().waitFor();
  await page.waitForTimeout(1000);
  const opening = await longest(page);
  await page.getByRole('tab', { name: 'Episodes' }).click();
  await page.waitForTimeout(1000);
  await longest(page);
  await page.getByRole('tab', { name: 'Overview' }).click();
  await page.getByRole('figure').first().waitFor();
  await page.waitForTimeout(1000);
  return [opening, await longest(page)];
}

let server: ChildProcess | undefined;
try {
  cell('std_sdk_m_small_default', 30);
  cell('std_sdk_m_big_default', 4000);
  await measure(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--quiet']);
  const env = { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data') };
  const started = await served([runs], env);
  server = started.server;
  const url = started.url;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await watchLongTasks(page);
  const figures: Record<string, [number, number][]> = { small: [], big: [] };
  for (let i = 0; i < RUNS; i++) {
    figures.small!.push(await open(page, url, 'std_sdk_m_small_default'));
    figures.big!.push(await open(page, url, 'std_sdk_m_big_default'));
  }
  await browser.close();
  const ms = (values: [number, number][], which: 0 | 1) => `${median(values.map((v) => v[which])).toFixed(0)} ms`;
  console.log(row('30 episodes: opening (baseline)', ms(figures.small!, 0)));
  console.log(row('4,000 episodes: opening', ms(figures.big!, 0), 'longest main-thread task (goal: under 200 ms)'));
  console.log(row('30 episodes: Overview again', ms(figures.small!, 1)));
  console.log(row('4,000 episodes: Overview again', ms(figures.big!, 1), 'longest main-thread task (goal: under 200 ms)'));
} finally {
  server?.kill();
  rmSync(home, { recursive: true, force: true });
}
