import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import { electronBinary } from '../scripts/deps.mjs';
import { ROOT, scratchHome, startServing, type Served } from './processes';

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

  test('serves the shell with the live demo; removing the demo leaves the empty state', async ({ page }) => {
    expect(served.output()).toContain('No Electron binary here');
    await page.goto(served.url);
    await expect(page.locator('body[data-ready="true"]')).toBeAttached();
    await expect(page.locator('.brand')).toHaveText('Cellwatch');
    await expect(page.locator('.root-row')).toContainText('demo');
    // It says what it is, each format it writes named, and how to watch one's own runs instead.
    await expect(page.getByRole('note')).toContainText('The built-in demo: a simulated cart-pole task');
    for (const format of ['bigym-agent', 'coding-agent', 'evopolicygym', 'NeMo Gym', 'Inspect AI']) await expect(page.getByRole('note')).toContainText(format);

    const table = page.getByRole('table', { name: 'Cells' });
    await expect(table.getByRole('row')).toHaveCount(13);
    // What a person watching must catch is marked: a unit stuck for a quarter of an hour, one looping; each filters.
    await expect(table.getByRole('row', { name: /^ui_demo_stuck/ }).locator('.stuck-mark')).toHaveText('stuck');
    await expect(table.getByRole('row', { name: /^ui_demo_looping/ }).locator('.stuck-mark')).toHaveText('looping');
    await page.getByLabel('Filter cells').fill('state:stuck');
    await expect(table.getByRole('row')).toHaveCount(2);
    await table.getByRole('row', { name: /^ui_demo_stuck/ }).getByRole('cell').nth(2).click();
    await expect(page.getByRole('status', { name: 'Stuck or looping' })).toHaveText(/^episode 3 stuck since .+: no new event for 1[56] min$/);
    // Its unit's row says so in its Episodes, and the status filter offers it.
    await page.getByRole('tab', { name: 'Episodes' }).click();
    await expect(page.getByRole('table', { name: 'Episodes' }).getByRole('row', { name: '3', exact: true })).toContainText('stuck');
    await expect(page.getByLabel('Episode status').getByRole('option', { name: 'stuck' })).toHaveCount(1);
    // It is still running: no outcome yet (not excluded), its time still counting, its events followed.
    await expect(page.getByRole('table', { name: 'Episodes' }).getByRole('row', { name: '3', exact: true })).not.toContainText('excluded');
    const side = page.locator('.episode-side');
    await expect(side.locator('.budget-row', { hasText: 'time' })).toContainText(/ left$/);
    await expect(side.locator('.follow')).toBeVisible();
    // Its budgets whole in a narrow window too, nothing cut at the panel's edge.
    await page.setViewportSize({ width: 1024, height: 700 });
    await expect.poll(() => side.evaluate((panel) => panel.scrollWidth - panel.clientWidth)).toBeLessThanOrEqual(1);
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.keyboard.press('Escape');
    await page.getByLabel('Filter cells').fill('');
    const bigymBudget = table.getByRole('row', { name: /cartpole_balance/ }).getByRole('meter');
    const before = Number(await bigymBudget.getAttribute('aria-valuenow'));
    await expect.poll(async () => Number(await bigymBudget.getAttribute('aria-valuenow')), { timeout: 20_000 }).toBeGreaterThan(before);
    await page.screenshot({ path: join(ROOT, 'out', 'test-results', 'demo.png') });

    // A removal can be undone for a few seconds: an errant click on the demo's × takes nothing away.
    const remove = page.getByRole('button', { name: /^Remove runs root .*demo-runs$/ });
    await remove.click();
    await expect(page.getByRole('heading', { name: 'No runs root yet' })).toBeVisible();
    await page.getByRole('status', { name: 'Root removed' }).getByRole('button', { name: 'Undo' }).click();
    await expect(table.getByRole('row')).toHaveCount(13);
    await page.reload();
    await expect(table.getByRole('row')).toHaveCount(13);

    // Left alone, the removal is done: the demo stays dismissed after a reload.
    await remove.click();
    await expect(page.getByRole('status', { name: 'Root removed' })).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'No runs root yet' })).toBeVisible();
    // What a root holds, each format's cells named as the app finds them.
    await expect(page.locator('.empty-state')).toContainText(
      'a cell is a folder with a run.json from coding-agent, bigym-agent or evopolicygym, a Harbor job folder, a NeMo Gym rollouts file or an Inspect AI log (.eval or .json)',
    );
    await expect(page.getByLabel('Runs root path')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Choose folder…' })).toHaveCount(0);
    await expect(page.locator('footer')).toContainText('serve mode');
  });
});
