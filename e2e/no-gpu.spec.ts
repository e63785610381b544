import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { instantDemoForSpecs, ROOT } from './processes';

/** A PATH folder with every command of this PATH but nvidia-smi, as on a laptop without an NVIDIA GPU. */
function pathWithoutNvidiaSmi(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const seen = new Set(['nvidia-smi']);
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      continue;
    }
    for (const name of names) {
      if (seen.has(name)) continue;
      seen.add(name);
      symlinkSync(join(folder, name), join(dir, name));
    }
  }
  return dir;
}

/** Fails the test on any uncaught error or console error in the page. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`${error.name}: ${error.message}`));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  return errors;
}

test.describe('no nvidia-smi on the PATH', () => {
  const served = instantDemoForSpecs((home) => {
    home.env.PATH = pathWithoutNvidiaSmi(join(home.home, 'bin'));
  });

  test('every view and dialog opens without an error', async ({ page }) => {
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.goto(served.url);
    await expect(page.locator('body[data-ready="true"]')).toBeAttached();

    // The Launch dialog: it once re-rendered without end when no GPU sample existed (React error #185).
    await page.getByRole('button', { name: 'Launch' }).click();
    const dialog = page.getByRole('dialog', { name: 'Launch a UI run' });
    await expect(dialog).toBeVisible();
    for (const profile of ['demo', 'coding-agent', 'bigym-agent', 'evopolicygym', 'custom']) {
      await dialog.getByLabel('Profile').selectOption(profile);
      await dialog.getByRole('button', { name: 'Dry run' }).click();
      await expect(dialog.getByLabel('Dry run').or(dialog.getByRole('alert'))).toBeVisible();
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);

    // The notification centre and its settings.
    await page.getByRole('button', { name: /^Alerts, / }).click();
    const alerts = page.getByRole('dialog', { name: 'Alerts' });
    await alerts.getByRole('button', { name: 'Settings' }).click();
    await expect(alerts.getByRole('checkbox', { name: 'a running cell stalls' })).toBeChecked();
    await page.screenshot({ path: join(ROOT, 'out', 'test-results', 'alerts-settings.png') });
    await page.keyboard.press('Escape');
    await expect(alerts).toHaveCount(0);

    for (const view of ['Paired test', 'Compare', 'GPU', 'Cells']) {
      await page.getByRole('tab', { name: view }).click();
      await expect(page.getByRole('tab', { name: view })).toHaveAttribute('aria-selected', 'true');
    }

    // Every cell, every tab.
    // By their whole names: a narrow window shows them cut.
    const names = await page.getByRole('table', { name: 'Cells' }).locator('button.link').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') as string));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      await page.getByRole('button', { name, exact: true }).click();
      await expect(page.getByRole('heading', { name })).toBeVisible();
      for (const tab of await page.getByRole('tablist', { name: 'Cell views' }).getByRole('tab').allTextContents()) {
        await page.getByRole('tablist', { name: 'Cell views' }).getByRole('tab', { name: tab }).click();
        await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
      }
      await page.keyboard.press('Escape');
      await expect(page.getByRole('heading', { name })).toHaveCount(0);
    }

    await page.keyboard.press('Control+k');
    await expect(page.getByLabel('Go to a cell or view')).toBeVisible();
    await page.keyboard.press('Escape');
    await page.screenshot({ path: join(ROOT, 'out', 'test-results', 'no-gpu.png') });
    expect(errors).toEqual([]);
  });
});
