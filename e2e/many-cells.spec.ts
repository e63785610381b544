import { expect, test } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, scratchHome, startServing, type Served } from './processes';

const CELLS = 10_000;

test.describe('a runs root of 10,000 cells', () => {
  const home = scratchHome();
  const runs = join(home.home, 'runs');
  let served: Served;

  test.beforeAll(async () => {
    for (let i = 0; i < CELLS; i++) {
      const name = `std_sdk_m${i % 5}_bare_${String(i).padStart(5, '0')}`;
      const dir = join(runs, `batch_${Math.floor(i / 1000)}`, name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'run.json'), JSON.stringify({ runner: 'coding-agent', run: name, protocol: { episodes: [0, 1, 2, 3] } }));
    }
    served = await startServing(process.execPath, [CLI, 'serve', '--port', '0', runs], home.env, 180_000);
  });
  test.afterAll(async () => {
    await served?.stop();
    home.remove();
  });

  test('lists them all, renders only the rows on screen, and scrolls to the last', async ({ page }) => {
    await page.goto(served.url);
    // Listing them all is what this asserts, not how fast (bench:scan measures that): a loaded machine takes longer.
    await expect(page.getByRole('table', { name: 'Cells' })).toHaveAttribute('aria-rowcount', String(CELLS + 1), { timeout: 30_000 });
    await page.getByRole('button', { name: /^Name/ }).click();
    const rendered = await page.getByRole('table', { name: 'Cells' }).getByRole('row').count();
    expect(rendered).toBeLessThan(120);
    await page.locator('.grid-body').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await expect(page.getByRole('button', { name: 'std_sdk_m4_bare_09999' })).toBeVisible();
    await page.getByLabel('Filter cells').fill('m3 09998');
    await expect(page.getByRole('table', { name: 'Cells' }).getByRole('row')).toHaveCount(2);
  });

  test('a root of them selected in the sidebar lists its first 50, each name cut where it differs from the others and shown whole', async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.goto(served.url);
    const sidebar = page.getByRole('complementary', { name: 'Hosts and runs roots' });
    await sidebar.getByRole('button', { name: /^runs/ }).click();
    const cells = sidebar.getByRole('list', { name: /Cells of/ });
    await expect(cells.getByRole('button')).toHaveCount(50);
    await expect(cells).toContainText('9,950 more in the list');
    const names = await cells.locator('.root-name').evaluateAll((els) => els.map((el) => ({ text: el.textContent ?? '', cut: el.scrollWidth > el.clientWidth })));
    expect(names.filter((n) => n.cut)).toEqual([]);
    expect(new Set(names.map((n) => n.text)).size).toBe(50);
    // Its whole name is what it is called, and a click opens it.
    await cells.getByRole('button', { name: 'std_sdk_m0_bare_00000' }).click();
    await expect(page.getByRole('heading', { name: 'std_sdk_m0_bare_00000' })).toBeVisible();
  });
});
