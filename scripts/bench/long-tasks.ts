// The page's main-thread tasks over 50 ms, as Chromium's long-task observer reports them, and the app
// served to it.
import type { Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT } from './measure';

/** Watches the page's long tasks from its first script on, across reloads. */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const tasks: number[] = [];
    (window as unknown as { longTasks: number[] }).longTasks = tasks;
    new PerformanceObserver((list) => list.getEntries().forEach((entry) => tasks.push(entry.duration))).observe({ type: 'longtask', buffered: true });
  });
}

/** The longest task since the last call (0: none over 50 ms). */
export const longest = (page: Page) => page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks.splice(0).reduce((most, d) => Math.max(most, d), 0));

/** `cellwatch serve` of `args` (a free port; `env` beside this process's), and the URL it prints. */
export async function served(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ url: string; server: ChildProcess }> {
  const server = spawn(process.execPath, [join(ROOT, 'out/cli.mjs'), 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: server.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const found = /http:\/\/\S+/.exec(line);
      if (found) resolve(found[0]);
    });
    server.once('exit', (code) => reject(new Error(`cellwatch serve exited with ${code} before printing a URL`)));
  });
  return { url, server };
}

/** Stops a served app and waits until it is gone: it writes its index cache until it exits. */
export function stopServed(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  const gone = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  server.kill();
  return gone;
}
