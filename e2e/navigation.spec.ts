import { expect, test } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, instantDemoForSpecs, ROOT, scratchHome, startServing, writeInstantDemo, type Served } from './processes';

test.describe('finding your way', () => {
  const home = scratchHome();
  let served: Served;
  test.beforeAll(async () => {
    // Two roots whose last folder is the same name: the demo's runs, and another project's.
    const first = join(home.home, 'alpha', 'runs');
    const second = join(home.home, 'beta', 'runs');
    writeInstantDemo(first, home);
    mkdirSync(join(second, 'std_sdk_other_bare_default'), { recursive: true });
    writeFileSync(join(second, 'std_sdk_other_bare_default', 'run.json'), JSON.stringify({ runner: 'coding-agent' }));
    served = await startServing(process.execPath, [CLI, 'serve', '--port', '0', first, second], home.env);
  });
  test.afterAll(async () => {
    await served?.stop();
    home.remove();
  });

  test('roots named alike are told apart; a click opens a cell, from the list or the sidebar; / filters the cells', async ({ page }) => {
    await page.goto(served.url);
    await expect(page.locator('body[data-ready="true"]')).toBeAttached();
    const sidebar = page.getByRole('complementary', { name: 'Hosts and runs roots' });
    await expect(sidebar.locator('.root-row .root-name')).toHaveText(['alpha/runs', 'beta/runs']);

    // `/` goes to the cell filter, not the roots filter.
    await page.keyboard.press('/');
    await expect(page.getByRole('searchbox', { name: /filter cells/i })).toBeFocused();
    await page.keyboard.type('other');
    const table = page.getByRole('table', { name: 'Cells' });
    await expect(table.getByRole('row')).toHaveCount(2);
    // What is happening now counts the cells the filter shows: the one.
    const counts = async () => ((await page.getByRole('status', { name: 'Now' }).innerText()).match(/\d+(?= (running|stale|crashed|ended))/g) ?? []).reduce((sum, n) => sum + Number(n), 0);
    await expect.poll(counts).toBe(1);
    // The filter teaches its syntax: field names, then the values the cells have; a filter that finds
    // nothing says how filters are written.
    const field = page.getByRole('searchbox', { name: /filter cells/i });
    await field.fill('');
    await page.keyboard.type('form');
    await expect(page.getByRole('listbox', { name: 'Filter completions' }).getByRole('option').first()).toHaveText('format:');
    await page.keyboard.press('Tab');
    await page.keyboard.type('nem');
    await page.keyboard.press('Tab');
    await expect(field).toHaveValue('format:nemo-gym');
    await expect(table.getByRole('row')).toHaveCount(2);
    await field.fill('state:nothing-is');
    await expect(page.getByRole('status').filter({ hasText: 'No cell matches' })).toContainText('field:value (state:running');
    await field.fill('other');
    await page.keyboard.press('Escape');

    // From the filter: Esc left it keeping the text, a second Esc clears it; ↓ enters the list at the
    // first match; Enter in the filter opens the first match.
    await expect(page.getByRole('searchbox', { name: /filter cells/i })).not.toBeFocused();
    await expect(page.getByRole('searchbox', { name: /filter cells/i })).toHaveValue('other');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('searchbox', { name: /filter cells/i })).toHaveValue('');
    await page.keyboard.press('/');
    await page.keyboard.type('other');
    await page.keyboard.press('ArrowDown');
    await expect(table.getByRole('row', { selected: true })).toContainText('std_sdk_other_bare_default');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'std_sdk_other_bare_default' })).toBeVisible();
    await page.keyboard.press('Escape');
    await page.keyboard.press('/');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'std_sdk_other_bare_default' })).toBeVisible();
    await page.keyboard.press('Escape');

    // One click on a row (not only on its name) opens the cell.
    await page.getByRole('searchbox', { name: /filter cells/i }).fill('');
    await table.getByRole('row', { name: /cartpole_balance/ }).getByRole('cell').nth(2).click();
    await expect(page.getByRole('heading', { name: 'cartpole_balance' })).toBeVisible();
    await page.keyboard.press('Escape');

    // A root selected in the sidebar lists its cells there; one click opens one.
    await sidebar.getByRole('button', { name: /^beta\/runs/ }).click();
    await sidebar.getByRole('list', { name: /Cells of/ }).getByRole('button', { name: 'std_sdk_other_bare_default' }).click();
    await expect(page.getByRole('heading', { name: 'std_sdk_other_bare_default' })).toBeVisible();
  });

  test('Ctrl+K finds episodes, policy versions and commands', async ({ page }) => {
    await page.goto(served.url);
    await expect(page.locator('body[data-ready="true"]')).toBeAttached();
    const palette = page.getByRole('dialog', { name: 'Go to' });
    const go = async (query: string, option: RegExp) => {
      await page.keyboard.press('Control+k');
      await palette.getByLabel('Go to a cell or view').fill(query);
      await expect(palette.getByRole('option').first()).toContainText(option);
      await page.keyboard.press('Enter');
      await expect(palette).toHaveCount(0);
    };
    await go('sdk bare episode 2', /std_sdk_demo-model_bare_default · episode 2/);
    await expect(page.getByRole('tab', { name: 'Episodes' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('table', { name: 'Episodes' }).getByRole('row', { selected: true }).getByRole('cell').first()).toHaveText('2');
    // A row chosen from elsewhere is scrolled into view.
    await page.getByRole('table', { name: 'Episodes' }).getByRole('row').filter({ has: page.locator('[role="cell"]:first-child', { hasText: /^2$/ }) }).click();
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1024, height: 500 });
    await go('sdk bare episode 29', /std_sdk_demo-model_bare_default · episode 29/);
    await expect(page.getByRole('table', { name: 'Episodes' }).getByRole('row', { selected: true })).toBeInViewport();
    await page.setViewportSize({ width: 1280, height: 720 });
    // An event whole, in the inspector; one that names a frame shows that frame.
    const events = page.getByRole('log', { name: 'Events' });
    const withFrame = events.getByRole('button').filter({ hasText: 'frames/' }).last();
    const frame = /frames\/\S+\.png/.exec((await withFrame.textContent()) ?? '')?.[0] as string;
    await withFrame.click();
    const inspector = page.getByRole('region', { name: /^Event \d+ tool_result$/ });
    await expect(inspector).toContainText(`"frame": "${frame}"`);
    await expect(page.getByRole('img', { name: /observation frame/ })).toHaveAttribute('src', new RegExp(`${frame.split('/').at(-1)}$`));
    // The same episode as a conversation: each call beside its whole result, its frame inline, times from
    // the start, and how it ended as the last entry.
    await page.getByRole('button', { name: 'Transcript' }).click();
    await expect(events.locator('.turn-message').first()).toContainText(/agent \+\d+\.\d s/);
    await expect(events.getByLabel('Output of c1', { exact: true })).toContainText('"ok": true');
    await expect(events.getByLabel('Output of c1', { exact: true })).toContainText('"frame": "frames/000001.png"');
    await expect(events.getByRole('img', { name: 'frame frames/000001.png' })).toBeVisible();
    await expect(events.locator('.turn').last()).toContainText(/^end \+\d+\.\d s ended \w+/);
    await page.screenshot({ path: join(ROOT, 'out', 'test-results', 'episode-transcript.png') });
    await page.getByRole('button', { name: 'Transcript' }).click();

    // Sorted by outcome, filtered to failures, searched: the table says what it shows.
    // The table renders only the rows on screen, so what it holds is read from the count it states.
    const episodes = page.getByRole('table', { name: 'Episodes' });
    const filters = page.getByRole('group', { name: 'Filter episodes' });
    await page.getByLabel('Episode outcome').selectOption('failure');
    await expect(episodes.getByRole('row').filter({ hasText: '✓ success' })).toHaveCount(0);
    await expect(filters).toContainText(/[\d,]+ of [\d,]+/);
    const [, shown = '', all = ''] = /([\d,]+) of ([\d,]+)/.exec((await filters.textContent()) ?? '') ?? [];
    expect(Number(shown.replace(/,/g, ''))).toBeLessThan(Number(all.replace(/,/g, '')));
    await episodes.getByRole('button', { name: 'Wall' }).click();
    await episodes.getByRole('button', { name: /Wall/ }).click();
    await expect(episodes.getByRole('columnheader', { name: /Wall/ })).toHaveAttribute('aria-sort', 'descending');
    await page.getByLabel('Episode outcome').selectOption('all');
    await page.getByLabel('Search episodes').fill('timeout');
    await expect(page.getByRole('group', { name: 'Filter episodes' })).toContainText(/\d+ of \d+/);
    await page.keyboard.press('Escape');
    await go('v002', /cartpole_balance v002/);
    await expect(page.getByRole('tab', { name: 'Versions' })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Escape');
    await go('launch', /Launch a UI run/);
    await expect(page.getByRole('dialog', { name: 'Launch a UI run' })).toBeVisible();
  });

  test('every place has a link: reloaded, copied or pasted it opens the same place; Back and Forward walk them', async ({ page, context, browser }) => {
    await page.goto(served.url);
    await expect(page.locator('body[data-ready="true"]')).toBeAttached();
    // The list filtered and a row highlighted, then a cell opened from it.
    await page.getByRole('searchbox', { name: 'Filter cells' }).fill('demo-model');
    await page.getByRole('searchbox', { name: 'Filter cells' }).blur();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    const highlighted = (await page.getByRole('table', { name: 'Cells' }).getByRole('row', { selected: true }).locator('button.link').getAttribute('aria-label')) as string;
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: highlighted })).toBeVisible();
    // Episode 3 of it, by Ctrl+K: of its 100 episodes, the table shows those on screen.
    await page.keyboard.press('Control+k');
    await page.getByRole('dialog', { name: 'Go to' }).getByLabel('Go to a cell or view').fill(`${highlighted} episode 3`);
    await expect(page.getByRole('dialog', { name: 'Go to' }).getByRole('option').first()).toContainText(`${highlighted} · episode 3`);
    await page.keyboard.press('Enter');
    // The list follows its end and draws the rows on screen only: its last event is the one in view for sure.
    await expect(page.getByRole('region', { name: 'Event stream' })).toContainText(/Episode 3(?!\d)/);
    const events = page.getByRole('log', { name: 'Events' }).getByRole('button');
    const seq = ((await events.last().locator('.event-seq').textContent()) as string).trim();
    // That event, by its seq: `last()` is found again at the click, and the rows drawn may have moved on since.
    await events.filter({ has: page.locator('.event-seq', { hasText: new RegExp(`^\\s*${seq}\\s*$`) }) }).click();
    await expect(page).toHaveURL(new RegExp(`#/cell/[^?]+\\?tab=episodes&episode=3&event=${seq}$`));

    // Copy link gives the address, token and all.
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy link' }).click();
    await expect(page.getByRole('button', { name: 'copied' })).toBeVisible();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toBe(page.url());

    // Reloaded, and pasted into another browser (nothing of this one's kept): the same cell, tab, episode and event.
    const elsewhere = await browser.newContext();
    for (const view of [page, await elsewhere.newPage()]) {
      if (view === page) await view.reload();
      else await view.goto(link);
      await expect(view.getByRole('heading', { name: highlighted })).toBeVisible();
      await expect(view.getByRole('tab', { name: 'Episodes' })).toHaveAttribute('aria-selected', 'true');
      await expect(view.getByRole('table', { name: 'Episodes' }).getByRole('row', { selected: true }).getByRole('cell').first()).toHaveText('3');
      await expect(view.getByRole('region', { name: new RegExp(`^Event ${seq} `) })).toBeVisible();
    }

    await elsewhere.close();

    // Back: the event closes, then the tab, then the list with its filter and highlighted row as they were.
    await page.goBack();
    await expect(page.getByRole('region', { name: /^Event \d+ / })).toHaveCount(0);
    while (await page.getByRole('heading', { name: highlighted }).isVisible()) await page.goBack();
    await expect(page.getByRole('searchbox', { name: 'Filter cells' })).toHaveValue('demo-model');
    await expect(page.getByRole('table', { name: 'Cells' }).getByRole('row', { selected: true })).toContainText(highlighted);
    await page.goForward();
    await expect(page.getByRole('heading', { name: highlighted })).toBeVisible();
  });

  test("the list's columns: hidden and dragged as the user says, and so again after a reload", async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.goto(served.url);
    const table = page.getByRole('table', { name: 'Cells' });
    const headers = table.getByRole('columnheader');
    await expect(headers).toHaveCount(10);
    // Names alike keep what tells them apart, however narrow their column: sdk from cli, bare from full.
    // (Where no cut tells them apart, whole, on two lines.)
    await expect(table.getByRole('button', { name: 'std_sdk_demo-model_bare_default' })).toHaveText(/sdk[\s\S]*bare/);
    await expect(table.getByRole('button', { name: 'std_cli_demo-model_bare_default' })).toHaveText(/cli[\s\S]*bare/);
    await page.getByText('Columns').click();
    await page.getByRole('checkbox', { name: 'Tokens' }).uncheck();
    await page.getByRole('checkbox', { name: 'Problems' }).uncheck();
    await expect(headers).toHaveCount(8);
    const format = headers.filter({ hasText: 'Format' });
    const before = ((await format.boundingBox()) as { width: number }).width;
    const handle = page.getByRole('separator', { name: 'Resize Format' });
    const box = (await handle.boundingBox()) as { x: number; y: number; width: number; height: number };
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 60, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    await expect.poll(async () => ((await format.boundingBox()) as { width: number }).width).toBeGreaterThan(before + 40);
    const dragged = ((await format.boundingBox()) as { width: number }).width;
    await page.reload();
    await expect(headers).toHaveText([/Name/, /Format/, /Board/, /State/, /Budget/, /Episodes/, /Success/, /Changed/]);
    expect(Math.round(((await format.boundingBox()) as { width: number }).width)).toBe(Math.round(dragged));
    await expect(page.getByText('Columns (2 hidden)')).toBeVisible();
  });

  test('the keyboard reaches every view, the alerts and a cell\'s tabs, and ? lists every shortcut', async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.goto(served.url);
    await expect(page.locator('body[data-ready="true"]')).toBeAttached();
    const go = async (words: string) => {
      await page.keyboard.press('Control+k');
      await page.getByLabel('Go to a cell or view').fill(words);
      await page.keyboard.press('Enter');
    };
    await go('board');
    await expect(page.getByRole('table', { name: /^Board / }).first()).toBeVisible();
    await go('fleet');
    await expect(page.getByRole('table', { name: 'Hosts' })).toBeVisible();
    await go('launched');
    await expect(page.getByRole('region', { name: 'Runs' })).toBeVisible();
    await go('alerts');
    await expect(page.getByRole('dialog', { name: 'Alerts' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'Alerts' })).toHaveCount(0);

    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(help).toContainText('Ctrl+K');
    await expect(help.getByRole('row')).toHaveCount(13);
    await page.keyboard.press('Escape');
    await expect(help).toHaveCount(0);

    // A cell's tabs: one Tab stop, the arrows move between them.
    await go('cartpole_balance');
    const tabs = page.getByRole('tablist', { name: 'Cell views' });
    await tabs.getByRole('tab', { name: 'Overview' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(tabs.getByRole('tab', { name: 'Episodes' })).toHaveAttribute('aria-selected', 'true');
    await expect(tabs.getByRole('tab', { name: 'Episodes' })).toBeFocused();
    await page.keyboard.press('End');
    await expect(tabs.getByRole('tab', { name: /^Problems/ })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowRight');
    await expect(tabs.getByRole('tab', { name: 'Overview' })).toHaveAttribute('aria-selected', 'true');
  });

  test('an episode its summary names with a megabyte is listed by its start and end, and opening it asks for nothing it cannot have', async ({ page }) => {
    const cell = join(home.home, 'beta', 'runs', 'std_sdk_huge_bare_default');
    mkdirSync(cell);
    writeFileSync(join(cell, 'run.json'), JSON.stringify({ runner: 'coding-agent', run: 'std_sdk_huge_bare_default' }));
    const episodes = { '0': { status: 'evaluated', success: true }, [`e${'k'.repeat(1 << 20)}`]: { status: 'evaluated', success: true } };
    writeFileSync(join(cell, 'summary.json'), JSON.stringify({ finished: true, episodes }));
    await page.goto(`${served.url}#/cell/${encodeURIComponent(`local:${cell}`)}?tab=episodes`);
    const row = page.getByRole('table', { name: 'Episodes' }).getByRole('row', { name: /^ek+… 1,048,\d{3} characters not shown …k+ #[0-9a-f]{12}$/ });
    await row.click();
    // It has no numbered folder: no events nor frames are asked for (a call naming it whole was a megabyte, past what the server takes).
    await expect(page.getByRole('status').filter({ hasText: 'No events of this episode to show: its files hold none.' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Frames' })).toHaveCount(0);
    await page.getByRole('tab', { name: 'Overview' }).click();
    await expect(page.locator('footer')).toContainText('local ok');
  });

  test('the server gone is said once, in place of the status it can no longer vouch for', async ({ page }) => {
    await page.goto(served.url);
    const footer = page.locator('footer');
    await expect(footer).toContainText('local ok');
    await served.stop();
    await expect(footer.getByRole('status')).toHaveText(/the Cellwatch server is not answering; reconnecting/);
    await expect(footer).not.toContainText('local ok');
  });
});

test.describe("a cell's slowest units", () => {
  const demo = instantDemoForSpecs();

  test("a cell's Overview names its slowest units, each a link to its row", async ({ page }) => {
    await page.goto(demo.url);
    await page.getByRole('table', { name: 'Cells' }).getByRole('row', { name: /std_sdk_demo-model_bare_default/ }).click();
    const slowest = page.getByRole('region', { name: 'Slowest episodes' });
    await expect(slowest.getByRole('listitem')).toHaveCount(5);
    await expect(slowest.getByRole('listitem').first()).toHaveText(/^episode \d+ [\d.]+ s \w+$/);
    const first = ((await slowest.getByRole('button').first().textContent()) ?? '').trim();
    // The first is the one the Episodes table puts first sorted by Wall, longest first.
    await slowest.getByRole('button').first().click();
    const table = page.getByRole('table', { name: 'Episodes' });
    await expect(table.getByRole('row', { name: first, exact: true })).toHaveAttribute('aria-selected', 'true');
    await table.getByRole('button', { name: /^Wall/ }).click();
    if ((await table.getByRole('columnheader', { name: /Wall/ }).getAttribute('aria-sort')) !== 'descending') await table.getByRole('button', { name: /^Wall/ }).click();
    await expect(table.getByRole('row').nth(1)).toHaveAttribute('aria-label', first);
  });
});
