// The page's main-thread tasks over 50 ms, as Chromium's long-task observer reports them.
import type { Page } from '@playwright/test';

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
