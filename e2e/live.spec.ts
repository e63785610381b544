import { expect, test } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, scratchHome, startProcess, startServing, stopProcess, type Served } from './processes';

const CELL = 'std_sdk_demo-model_bare_default';

test.describe('watch a live cell', () => {
  const home = scratchHome();
  const runs = join(home.home, 'runs');
  let demo: ChildProcess;
  let served: Served;

  test.beforeAll(async () => {
    demo = startProcess(process.execPath, [CLI, 'demo', runs, '--speed', '3']);
    await new Promise((r) => setTimeout(r, 1500));
    served = await startServing(process.execPath, [CLI, 'serve', '--port', '0', runs], home.env);
  });
  test.afterAll(async () => {
    await stopProcess(demo, 'the demo');
    await served?.stop();
    home.remove();
  });

  test('budget bars move, episodes appear, frames render, a malformed line is a problem while the rest flows', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('button', { name: CELL }).click();
    await expect(page.getByRole('heading', { name: CELL })).toBeVisible();

    const budget = page.getByRole('meter', { name: 'episodes' });
    await expect(budget).toBeVisible();
    const before = Number(await budget.getAttribute('aria-valuenow'));
    await expect.poll(async () => Number(await budget.getAttribute('aria-valuenow')), { timeout: 30_000 }).toBeGreaterThan(before);
    // Its headline says when the budget runs out at its pace so far.
    await expect(page.locator('.cell-header')).toContainText(/ends about \d\d:\d\d/);

    await page.getByRole('tab', { name: 'Episodes' }).click();
    const rows = page.getByRole('table', { name: 'Episodes' }).getByRole('row');
    const count = await rows.count();
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBeGreaterThan(count);
    await expect(page.getByRole('log', { name: 'Events' })).toContainText('episode_start');

    // A frame: the image loads and is not blank.
    const frame = page.getByRole('img', { name: /observation frame/ });
    await expect(frame).toBeVisible({ timeout: 20_000 });
    // Read in one go, once loaded: the viewer follows the newest frame, so the image may be another one, still loading, a moment later.
    const colours = () => frame.evaluate((img: HTMLImageElement) => {
      if (!img.complete || img.naturalWidth !== 84) return null;
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const context = canvas.getContext('2d') as CanvasRenderingContext2D;
      context.drawImage(img, 0, 0);
      const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < data.length; i += 4) seen.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
      return seen.size;
    });
    await expect.poll(colours).toBeGreaterThan(3);

    // Episode 0 has ended; open it, then append a malformed line and a good one to its trajectory.
    await rows.filter({ hasText: /^0/ }).first().click();
    await expect(page.getByRole('heading', { name: 'Episode 0' })).toBeVisible();
    const trajectory = join(runs, CELL, 'episodes', '0000', 'trajectory.jsonl');
    appendFileSync(trajectory, '{"seq": 900, "ev": "agent_message", "text": \n');
    appendFileSync(trajectory, `${JSON.stringify({ seq: 901, t: Date.now() / 1000, ev: 'agent_message', text: 'written after the broken line' })}\n`);
    await expect(page.getByRole('log', { name: 'Events' })).toContainText('written after the broken line');
    await page.screenshot({ path: join(ROOT, 'out', 'test-results', 'live-episodes.png') });
    await page.getByRole('tab', { name: /^Problems \(\d+\)$/ }).click();
    await expect(page.getByRole('list', { name: 'Cell problems' })).toContainText(/episodes\/0000\/trajectory\.jsonl:\d+ malformed JSON/);
  });
});
