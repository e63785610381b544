import { expect, test } from '@playwright/test';
import { electronBinary } from '../scripts/deps.mjs';
import { scratchHome, startServing, type Served } from './processes';

test.describe('npm start without an Electron binary', () => {
  test.skip(electronBinary() !== null, 'an Electron binary is installed here, so npm start opens the window (see electron.spec.ts)');

  let served: Served;
  const home = scratchHome();
  test.beforeAll(async () => {
    served = await startServing('npm', ['start', '--', '--port', '0'], home.env);
  });
  test.afterAll(async () => {
    await served?.stop();
    home.remove();
  });

  test('says it serves instead, and Chromium renders the shell with the empty state', async ({ page }) => {
    expect(served.output()).toContain('No Electron binary here');
    await page.goto(served.url);
    await expect(page.locator('body[data-ready="true"]')).toBeAttached();
    await expect(page.locator('.brand')).toHaveText('Cellwatch');
    await expect(page.getByRole('complementary', { name: 'Hosts and runs roots' })).toContainText('local');
    await expect(page.getByRole('heading', { name: 'No runs root yet' })).toBeVisible();
    await expect(page.getByLabel('Runs root path')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Choose folder…' })).toHaveCount(0);
    await expect(page.locator('footer')).toContainText('serve mode');
  });
});
