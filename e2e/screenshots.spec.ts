// The README's screenshots: the cell list, the four journeys, the board and a NeMo Gym collection at 1440x900 and 1024x700, light and dark.
// `npm run screenshots` writes all four into the README's folder; every e2e run walks the journeys in two of
// them (each size once, each scheme once) into out/test-results/screenshots.
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { instantDemoForSpecs, ROOT, type Served } from './processes';

const OUT = process.env.CELLWATCH_SCREENSHOTS ? join(ROOT, process.env.CELLWATCH_SCREENSHOTS) : join(ROOT, 'out', 'test-results', 'screenshots');

async function journeys(page: Page, served: Served, name: (journey: string) => string): Promise<void> {
  await page.goto(served.url);
  await expect(page.locator('body[data-ready="true"]')).toBeAttached();
  // The list: every cell, each column as wide as its values.
  await expect(page.getByRole('table', { name: 'Cells' }).getByRole('row')).toHaveCount(11);
  await page.screenshot({ path: name('0-list') });

  // 1. Launch a UI run: the profile, its knobs, the dry run.
  await page.getByRole('button', { name: 'Launch' }).click();
  const dialog = page.getByRole('dialog', { name: 'Launch a UI run' });
  await dialog.getByLabel('Profile').selectOption('coding-agent');
  await dialog.getByLabel('Run label').fill('trial');
  await dialog.getByRole('button', { name: 'Dry run' }).click();
  await expect(dialog.getByLabel('Dry run')).toBeVisible();
  await page.screenshot({ path: name('1-launch') });
  await page.keyboard.press('Escape');

  // 2. Watch a cell: its episodes, one episode's events and frames.
  await page.getByRole('table', { name: 'Cells' }).getByRole('row', { name: /std_sdk_demo-model_bare_default/ }).click();
  await page.getByRole('tab', { name: 'Episodes' }).click();
  await expect(page.getByRole('img', { name: /observation frame/ })).toBeVisible();
  await page.screenshot({ path: name('2-watch') });
  await page.keyboard.press('Escape');

  // 3. Compare policy versions on one seed.
  await page.getByRole('table', { name: 'Cells' }).getByRole('row', { name: /cartpole_balance/ }).click();
  await page.getByRole('tab', { name: 'Versions' }).click();
  for (const v of ['v001', 'v002', 'v004']) await page.getByLabel(`Compare ${v}`).check();
  await page.getByRole('button', { name: /^Compare 3 on one seed/ }).click();
  const view = page.getByRole('region', { name: 'Compare' });
  await view.getByLabel('Seed').selectOption('900001');
  // The seed's comparison is loaded once the link holds it: a Record before then would be the other seed's.
  await expect(page).toHaveURL(/&seed=900001$/);
  await expect(view.getByRole('figure')).toHaveCount(3);
  await page.screenshot({ path: name('3-compare') });

  // 4. Record the comparison to mp4.
  await view.getByLabel('Recording length (s)').fill('1');
  await view.getByRole('button', { name: 'Record mp4' }).click();
  await expect(view.getByRole('link', { name: /open the recording/ })).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: name('4-record') });

  // 5. The board: squares by model and harness · condition · effort, the real difference marked.
  await page.getByRole('tab', { name: 'Board' }).click();
  await expect(page.getByRole('table', { name: 'Comparisons' })).toBeVisible();
  await page.screenshot({ path: name('5-board') });

  // 6. A NeMo Gym collection's tables: agents, tasks with pass@k, rollouts.
  await page.getByRole('tab', { name: 'Cells' }).click();
  await page.getByRole('table', { name: 'Cells' }).getByRole('row', { name: /^rollouts/ }).getByRole('cell').first().click();
  await page.getByRole('tab', { name: 'Tables' }).click();
  await expect(page.getByRole('region', { name: 'Agents' })).toBeVisible();
  await page.screenshot({ path: name('6-nemo') });
}

test.describe('the README screenshots', () => {
  const served = instantDemoForSpecs(() => mkdirSync(OUT, { recursive: true }));

  for (const scheme of ['light', 'dark'] as const) {
    for (const [width, height] of [
      [1440, 900],
      [1024, 700],
    ] as const) {
      if (!process.env.CELLWATCH_SCREENSHOTS && (scheme === 'light') !== (width === 1024)) continue;
      test(`${scheme}, ${width}x${height}`, async ({ page }) => {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize({ width, height });
        await journeys(page, served, (journey) => join(OUT, `${journey}-${width}-${scheme}.png`));
      });
    }
  }
});
