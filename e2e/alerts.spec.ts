import { expect, test } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, scratchHome, startProcess, startServing, stopProcess, type Served } from './processes';

const CELL = 'std_sdk_demo-model_bare_default';

test.describe('alerts', () => {
  const home = scratchHome();
  const runs = join(home.home, 'runs');
  let demo: ChildProcess | undefined;
  let served: Served;

  test.beforeAll(async () => {
    mkdirSync(runs, { recursive: true });
    served = await startServing(process.execPath, [CLI, 'serve', '--port', '0', runs], home.env);
  });
  test.afterAll(async () => {
    await stopProcess(demo, 'the demo');
    await served?.stop();
    home.remove();
  });

  test('a demo cell finishing raises one finished notification and centre entry (a throttle on the way one more each), whose click opens the cell', async ({ page, context }) => {
    // Every system notification the page shows, kept where the test can read it; the real one is still shown.
    await page.addInitScript(() => {
      const Real = window.Notification;
      const shown: { title: string; body: string }[] = [];
      (window as unknown as { shown: typeof shown }).shown = shown;
      window.Notification = class extends Real {
        constructor(title: string, options?: NotificationOptions) {
          super(title, options);
          shown.push({ title, body: options?.body ?? '' });
        }
      } as typeof Notification;
    });
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.goto(served.url);
    await expect(page.locator('body[data-ready="true"]')).toBeAttached();
    const bell = page.getByRole('button', { name: /^Alerts, \d+ unread$/ });
    await expect(bell).toHaveAccessibleName('Alerts, 0 unread');
    // The page never asks for system notifications on its own: its centre offers them.
    await bell.click();
    await expect(page.getByRole('dialog', { name: 'Alerts' }).getByRole('button', { name: 'Show system notifications' })).toBeVisible();
    expect(await page.evaluate(() => Notification.permission)).toBe('default');
    await page.keyboard.press('Escape');
    await context.grantPermissions(['notifications'], { origin: served.origin });

    demo = startProcess(process.execPath, [CLI, 'demo', runs, '--only', 'coding-agent', '--name', CELL, '--speed', '75']);
    await expect(page.getByRole('button', { name: CELL })).toBeVisible({ timeout: 20_000 });
    const shownNow = () => page.evaluate(() => (window as unknown as { shown: { title: string; body: string }[] }).shown);
    // Finishing is said once; the demo's model service may throttle the run on the way, which is said too.
    await expect.poll(async () => (await shownNow()).filter((s) => s.body.startsWith('finished: ')).length, { timeout: 60_000 }).toBe(1);
    const shown = await shownNow();
    await expect(bell).toHaveAccessibleName(`Alerts, ${shown.length} unread`);
    for (const one of shown) {
      expect(one).toEqual({ title: CELL, body: expect.stringMatching(/^(finished: \d+\.\d % success \(\d+ of \d+ scored\)|throttled: its model service paused it for [\d.]+ (s|min|h), until \d\d:\d\d:\d\d( [AP]M)?)$/) });
    }

    await bell.click();
    const panel = page.getByRole('dialog', { name: 'Alerts' });
    const entry = panel.getByRole('button', { name: new RegExp(`${CELL}.*finished: `) });
    await expect(entry).toHaveCount(1);
    // Its time on one line, before its dot (a time as an en-US machine writes it, 10:38 PM, was broken in two).
    const [time, dot, subject] = await Promise.all(['time', '.dot', '.alert-subject'].map((part) => entry.locator(part).boundingBox()));
    expect(time && dot && subject && time.height <= subject.height + 1 && time.x + time.width <= dot.x, `the time at ${JSON.stringify(time)}, its dot at ${JSON.stringify(dot)}`).toBe(true);
    await page.screenshot({ path: join(ROOT, 'out', 'test-results', 'alerts.png') });
    await expect(bell).toHaveAccessibleName('Alerts, 0 unread');
    await entry.click();
    await expect(page.getByRole('heading', { name: CELL })).toBeVisible();
    await expect(panel).toHaveCount(0);

    // One kind turned off for this cell, then the whole cell muted, from its header; the centre's
    // settings name it; a reload keeps it all.
    await page.getByRole('button', { name: 'Alerts', exact: true }).click();
    const cellAlerts = page.getByRole('dialog', { name: 'Alerts of this cell' });
    await cellAlerts.getByRole('checkbox', { name: 'a running cell stalls' }).uncheck();
    await expect(page.getByRole('button', { name: 'Alerts: 12 of 13' })).toBeVisible();
    await cellAlerts.getByRole('checkbox', { name: /Mute this cell/ }).check();
    await expect(page.getByRole('button', { name: 'Alerts muted' })).toBeVisible();
    await page.reload();
    await expect(page.locator('body[data-ready="true"]')).toBeAttached();
    await expect(bell).toHaveAccessibleName('Alerts, 0 unread');
    await bell.click();
    await expect(panel.getByRole('button', { name: new RegExp(`${CELL}.*finished: `) })).toHaveCount(1);
    await panel.getByRole('button', { name: 'Settings' }).click();
    await expect(panel).toContainText('1 cell with alerts turned off');
    expect(await page.evaluate(() => (window as unknown as { shown: unknown[] }).shown)).toEqual([]);
  });
});
