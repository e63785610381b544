import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import { writeTree } from '../runners/testing';
import { CLI, ROOT, scratchHome, startServing, type Served } from './processes';

test.describe('runs roots in serve mode', () => {
  const home = scratchHome();
  const runs = join(home.home, 'runs');
  const missing = join(home.home, 'not-there');
  let served: Served;

  test.beforeAll(async () => {
    writeTree(runs, {
      'std_sdk_fable-5_bare_default/run.json': { runner: 'coding-agent' },
      'bigym/move_plate/run.json': { runner: 'bigym-agent' },
      'ui_try/run.json': { runner: 'coding-agent' },
    });
    // An SSH alias whose host name does not resolve (a typo, a VPN that is down).
    writeTree(join(home.home, '.ssh'), { config: 'Host gpu1\n  HostName nonexistent-host.invalid\n' });
    served = await startServing(process.execPath, [CLI, 'serve', '--port', '0', missing], home.env);
  });
  test.afterAll(async () => {
    await served?.stop();
    home.remove();
  });

  test('a page without the token gets 401; the app keeps its token out of cookies, which any other local port would receive', async ({ page }) => {
    const response = await page.goto(`${served.origin}/`);
    expect(response?.status()).toBe(401);
    await expect(page.locator('body')).toContainText('token required');
    await page.goto(served.url);
    await expect(page.locator('body[data-ready="true"]')).toBeAttached();
    expect(await page.context().cookies()).toEqual([]);
  });

  test('a missing root shows as a problem, an added root lists its cells and survives a reload', async ({ page }) => {
    await page.goto(served.url);
    await expect(page.locator('body[data-ready="true"]')).toBeAttached();
    await expect(page.locator('.root-row')).toContainText('missing');
    await expect(page.getByRole('list', { name: 'Problems' })).toContainText(`${missing}`);
    await expect(page.getByRole('list', { name: 'Problems' })).toContainText('does not exist');

    await page.getByLabel('Runs root path').fill(runs);
    await page.getByRole('button', { name: 'Add root' }).click();
    const table = page.getByRole('table', { name: 'Cells' });
    const rows = table.getByRole('row');
    await expect(rows).toHaveCount(4);
    await expect(table).toContainText('std_sdk_fable-5_bare_default');
    await expect(rows.filter({ hasText: 'ui_try' }).locator('.badge')).toHaveText('ui');
    await expect(rows.filter({ hasText: 'move_plate' })).toContainText('bigym-agent');

    await page.getByRole('button', { name: 'Name' }).click();
    await expect(rows.nth(1)).toContainText('move_plate');
    await page.getByRole('button', { name: /^Name/ }).click();
    await expect(rows.nth(1)).toContainText('ui_try');
    await page.getByLabel('Filter cells').fill('bigym');
    await expect(rows).toHaveCount(2);
    await page.getByLabel('Filter cells').fill('');
    await page.getByLabel('Group by').selectOption('format');
    await expect(table.getByRole('rowheader')).toHaveText(['bigym-agent', 'coding-agent']);
    await expect(table.getByRole('row', { name: /^bigym-agent/ })).toContainText('1 cell · ');
    await expect(rows).toHaveCount(1 + 2 + 3);
    await page.getByLabel('Group by').selectOption('none');

    // Ctrl+K jumps to a cell by a few letters of its name.
    await page.keyboard.press('Control+k');
    await page.getByLabel('Go to a cell or view').fill('plate');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'move_plate' })).toBeVisible();
    // Esc goes back to the list.
    await page.keyboard.press('Escape');
    await expect(page.getByRole('heading', { name: 'move_plate' })).toHaveCount(0);
    await expect(table.getByRole('row')).toHaveCount(4);

    await page.reload();
    await expect(page.locator('.root-row', { hasText: 'runs' })).toContainText('3 cells');
    await page.screenshot({ path: join(ROOT, 'out', 'test-results', 'roots.png') });

    await page.getByRole('button', { name: `Remove runs root ${runs}` }).click();
    await expect(page.locator('.root-row', { hasText: 'runs' })).toHaveCount(0);
  });

  test('a relative path is refused with a reason; a path that does not exist is kept as a missing root', async ({ page }) => {
    await page.goto(served.url);
    await page.getByLabel('Runs root path').fill('relative/nowhere');
    await page.getByRole('button', { name: 'Add root' }).click();
    await expect(page.getByRole('alert')).toContainText('runs root must be an absolute path');
    await page.getByLabel('Runs root path').fill(join(home.home, 'later'));
    await page.getByRole('button', { name: 'Add root' }).click();
    await expect(page.locator('.root-row', { hasText: 'later' })).toContainText('missing');
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('a host whose name does not resolve is a root that says so in ssh\'s words at once, and leaves no trace once removed', async ({ page }) => {
    await page.goto(served.url);
    const root = 'gpu1:/data/me/jobs/agents';
    await page.getByLabel('Runs root path').fill(root);
    await page.getByRole('button', { name: 'Add root' }).click();
    const row = page.locator('.root-row', { hasText: 'agents' });
    await expect(row).toContainText('unreadable');
    await expect(row.locator('.root-meta')).toHaveAttribute('title', /Could not resolve hostname nonexistent-host\.invalid: Name or service not known/);
    // Added, not scanning for ever: the field is free for the next one.
    await expect(page.getByRole('button', { name: 'Add root' })).toBeVisible();
    await expect(page.getByLabel('Runs root path')).toHaveValue('');

    await page.getByRole('button', { name: `Remove runs root ${root}` }).click();
    await page.getByRole('status', { name: 'Root removed' }).getByRole('button', { name: 'Undo' }).click();
    await expect(row).toContainText('unreadable');
    await page.getByRole('button', { name: `Remove runs root ${root}` }).click();
    await expect(page.getByRole('status', { name: 'Root removed' })).toHaveCount(0);
    await page.reload();
    await expect(page.locator('body[data-ready="true"]')).toBeAttached();
    await expect(row).toHaveCount(0);
    await expect(page.locator('aside')).not.toContainText('gpu1');
    await expect(page.locator('footer')).not.toContainText('gpu1');
  });
});
