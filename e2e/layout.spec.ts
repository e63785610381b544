import { expect, test, type Locator, type Page } from '@playwright/test';
import { join } from 'node:path';
import { instantDemoForSpecs, ROOT } from './processes';

type Box = { x: number; y: number; width: number; height: number };

const overlap = (a: Box, b: Box) => a.x < b.x + b.width - 1 && b.x < a.x + a.width - 1 && a.y < b.y + b.height - 1 && b.y < a.y + a.height - 1;

async function boxes(locator: Locator): Promise<Box[]> {
  return (await Promise.all((await locator.all()).map((l) => l.boundingBox()))).filter((b): b is Box => b !== null);
}

/** Nothing the locator finds reaches past the window's right edge. */
async function inWindow(page: Page, locator: Locator): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  for (const box of await boxes(locator)) expect(box.x + box.width, `a box ends at ${box.x + box.width}, past ${width}`).toBeLessThanOrEqual(width + 1);
}

/** No two of these boxes overlap. */
async function apart(locator: Locator): Promise<void> {
  const all = await boxes(locator);
  for (let i = 0; i < all.length; i++) for (let j = i + 1; j < all.length; j++) expect(overlap(all[i] as Box, all[j] as Box), `boxes ${i} and ${j} overlap`).toBe(false);
}

for (const [width, height] of [
  [1024, 700],
  [2560, 1440],
]) {
  test.describe(`every view at ${width}x${height}`, () => {
    const served = instantDemoForSpecs();

    test('columns whole, boxes apart, nothing past the edge', async ({ page }) => {
      await page.setViewportSize({ width: width as number, height: height as number });
      await page.goto(served.url);
      await expect(page.locator('body[data-ready="true"]')).toBeAttached();

      // The list: every column there, its header not cut.
      const list = page.getByRole('table', { name: 'Cells' });
      await expect(list.getByRole('columnheader')).toHaveText([/Name/, /Format/, /Board/, /State/, /Budget/, /Episodes/, /Success/, /Tokens/, /Changed/, /Problems/]);
      const cut = await list.getByRole('columnheader').evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => `${el.textContent} ${el.scrollWidth}>${el.clientWidth}`));
      expect(cut).toEqual([]);
      await inWindow(page, list.getByRole('columnheader'));

      // A cell: its header's parts apart; the episodes table beside its events and frames, not under them.
      await list.getByRole('row', { name: /cartpole_balance/ }).click();
      await expect(page.locator('.cell-header')).toBeVisible();
      await apart(page.locator('.cell-header > *:not(.run-controls)'));
      await inWindow(page, page.locator('.cell-header > *'));
      await page.getByRole('tab', { name: 'Episodes' }).click();
      const table = page.locator('.episode-table');
      const side = page.locator('.episode-side');
      await expect(side).toBeVisible();
      expect(overlap((await table.boundingBox()) as Box, (await side.boundingBox()) as Box)).toBe(false);
      await inWindow(page, page.locator('.episode-side, .episode-table, .episodes [role="columnheader"]'));
      await page.getByRole('tab', { name: 'Versions' }).click();
      await inWindow(page, page.getByRole('table', { name: 'Policy versions' }));
      await page.screenshot({ path: join(ROOT, 'out', 'test-results', `layout-${width}.png`) });
      await page.keyboard.press('Escape');

      for (const view of ['Paired test', 'Compare', 'GPU', 'Runs', 'Fleet']) {
        await page.getByRole('tab', { name: view }).click();
        await inWindow(page, page.locator('main *'));
      }

      // Ctrl+B hides the sidebar, and the main view takes its room; again, it is back.
      const before = (await page.locator('main').boundingBox()) as Box;
      await page.keyboard.press('Control+b');
      await expect(page.getByRole('complementary', { name: 'Hosts and runs roots' })).toBeHidden();
      expect(((await page.locator('main').boundingBox()) as Box).width).toBeGreaterThan(before.width);
      await page.keyboard.press('Control+b');
      await expect(page.getByRole('complementary', { name: 'Hosts and runs roots' })).toBeVisible();
    });
  });
}
