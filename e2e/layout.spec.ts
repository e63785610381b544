import { expect, test, type Locator } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyDemo } from '../runners/demo/copy';
import { boxes, episodePanelsFit, inWindow, overlap, type Box } from './panels';
import { instantDemoForSpecs, ROOT } from './processes';

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
    let runs = '';
    const served = instantDemoForSpecs((home) => (runs = join(home.home, 'runs')));

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
      // Every column inside the table's own edge, none drawn over the margin past it.
      const past = await list.evaluate((table) => [...table.querySelectorAll('[role=row]')].filter((row) => row.scrollWidth > table.clientWidth).length);
      expect(past).toBe(0);
      // Each name as shown, cut or whole, tells its cell apart: no two read the same (a row that came in the
      // last 2 s is cut in its middle until the list next measures its rows).
      await expect(async () => {
        const names = await list.locator('span.name').allTextContents();
        expect(names.length).toBeGreaterThan(5);
        expect(new Set(names).size, names.join(' | ')).toBe(names.length);
      }).toPass({ timeout: 15_000 });

      // A cell of each format: its header's parts apart; its Episodes tab, a row open, the table beside
      // what the row holds (events, frames, facts), not under it, each panel in the window with one scrollbar.
      // Every format at the narrowest size, where panels meet; at the widest, the one with frames.
      const cells = width === 1024 ? [/std_sdk_demo-model_full_default/, /cartpole_evo/, /^rollouts/, /cartpole_balance/] : [/cartpole_balance/];
      for (const name of cells) {
        await list.getByRole('row', { name }).click();
        await expect(page.locator('.cell-header')).toBeVisible();
        await apart(page.locator('.cell-header > *:not(.run-controls)'));
        await inWindow(page, page.locator('.cell-header > *'));
        // Its success chart's episode labels apart, each inside the chart (a rollout's id is 26 characters);
        // none for evopolicygym, whose submissions are no pass or fail.
        const success = page.getByRole('figure', { name: /^Success (rate )?so far \(%\)/ });
        if (name.source === 'cartpole_evo') {
          await expect(success).toHaveCount(0);
        } else {
          await expect(success.locator('.recharts-xAxis-tick-labels text').first()).toBeVisible();
        }
        // Every chart's axis labels apart, each inside its chart.
        for (const chart of await page.locator('figure.chart').all()) {
          const labels = chart.locator('.recharts-xAxis-tick-labels text');
          await apart(labels);
          const box = (await chart.boundingBox()) as Box;
          for (const label of await boxes(labels)) expect(label.x >= box.x && label.x + label.width <= box.x + box.width, `${String(name)}: a label at ${label.x}+${label.width} outside ${box.x}+${box.width}`).toBe(true);
        }
        await page.getByRole('tab', { name: 'Episodes' }).click();
        await page.locator('.episode-table').getByRole('row').nth(1).click();
        await episodePanelsFit(page, String(name));
        // Every column of the episodes table inside its pane: long ids give way, cut in their middle.
        const edges = await page.locator('.episode-table').evaluate((pane) => ({ pane: pane.getBoundingClientRect().right, columns: [...pane.querySelectorAll('[role=columnheader]')].map((h) => ({ title: (h.textContent ?? '').trim(), right: h.getBoundingClientRect().right, width: h.getBoundingClientRect().width })) }));
        expect(edges.columns.reduce((most, box) => Math.max(most, box.right), 0), `${String(name)}: the episodes' columns end past their pane at ${edges.pane}: ${edges.columns.map((box) => box.right).join(" ")}`).toBeLessThanOrEqual(edges.pane + 1);
        // The note, which gives way whole, is drawn at 64 px or more, or not at all: never a letter a row.
        const note = edges.columns.find((box) => box.title === 'Note');
        if (note) expect(note.width, `${String(name)}: the note column is a sliver`).toBeGreaterThanOrEqual(64);
        // Each event's number, time and type whole: the type's column as wide as the stream's longest (these are all under 20 characters).
        const cutTypes = await page.getByRole('log', { name: 'Events' }).locator('.event-seq, .event-time, .event-type').evaluateAll((types) => types.filter((t) => t.scrollWidth > t.clientWidth).map((t) => t.textContent));
        expect(cutTypes, `${String(name)}: event numbers, times or types cut`).toEqual([]);
        // The stream shows its newest event, whatever loaded around it after.
        await expect(page.getByRole('log', { name: 'Events' }).getByRole('button').last()).toBeInViewport();
        if (name.source !== 'cartpole_balance') await page.keyboard.press('Escape');
      }
      await page.getByRole('tab', { name: 'Versions' }).click();
      await inWindow(page, page.getByRole('table', { name: 'Policy versions' }));
      await page.screenshot({ path: join(ROOT, 'out', 'test-results', `layout-${width}.png`) });
      await page.keyboard.press('Escape');

      for (const view of ['Paired test', 'Compare', 'GPU', 'Runs', 'Fleet']) {
        await page.getByRole('tab', { name: view }).click();
        await inWindow(page, page.locator('main *'));
      }
      // Each launch profile's field labels inside their column (a NeMo Gym knob names +num_samples_in_parallel).
      await page.getByRole('button', { name: 'Launch' }).click();
      const launch = page.getByRole('dialog', { name: 'Launch a UI run' });
      await expect(launch.getByLabel('Profile').locator('option', { hasText: 'nemo-gym' })).toBeAttached();
      for (const profile of await launch.getByLabel('Profile').locator('option').allTextContents()) {
        await launch.getByLabel('Profile').selectOption(profile);
        const over = await launch.locator('.field > span:first-child').evaluateAll((labels) => labels.filter((l) => l.scrollWidth > l.clientWidth + 1).map((l) => l.textContent));
        expect(over, `${profile}: labels past their column`).toEqual([]);
      }
      await page.keyboard.press('Escape');
      // The board's comparisons inside its view, their names broken rather than the Holm p pushed past the edge.
      await page.getByRole('tab', { name: 'Board' }).click();
      const comparisons = page.getByRole('table', { name: 'Comparisons' });
      const [table, view] = await comparisons.evaluate((t) => [t.getBoundingClientRect().right, (t.closest('.board-view') as HTMLElement).getBoundingClientRect().right]);
      expect(table, `the comparisons end at ${table}, the board at ${view}`).toBeLessThanOrEqual((view as number) + 1);

      // Ctrl+B hides the sidebar, and the main view takes its room; again, it is back.
      const before = (await page.locator('main').boundingBox()) as Box;
      await page.keyboard.press('Control+b');
      await expect(page.getByRole('complementary', { name: 'Hosts and runs roots' })).toBeHidden();
      expect(((await page.locator('main').boundingBox()) as Box).width).toBeGreaterThan(before.width);
      await page.keyboard.press('Control+b');
      await expect(page.getByRole('complementary', { name: 'Hosts and runs roots' })).toBeVisible();
    });

    // The side panel at its fullest: budgets, a throttle's countdown, two rows of event types, a camera.
    if (height === 700) {
      test('a throttled episode keeps five of its events in view beside its budgets and frames', async ({ page }) => {
        const cell = throttledCell(runs);
        await page.setViewportSize({ width: width as number, height: height as number });
        await page.goto(`${served.url}#/cell/${encodeURIComponent(`local:${cell}`)}?tab=episodes&episode=17`);
        await expect(page.locator('.episode-side').getByRole('status').filter({ hasText: 'throttled' })).toContainText(/throttled \(attempt 1 of 6\): resumes in/);
        await expect(page.getByRole('img', { name: /observation frame/ })).toBeVisible();
        await episodePanelsFit(page, 'a throttled episode');
        const events = page.getByRole('log', { name: 'Events' });
        const shown = await events.evaluate((log) => {
          const box = log.getBoundingClientRect();
          return [...log.querySelectorAll('.event-row')].filter((row) => row.getBoundingClientRect().top >= box.top - 1 && row.getBoundingClientRect().bottom <= box.bottom + 1).length;
        });
        expect(shown, 'events shown whole').toBeGreaterThanOrEqual(5);
      });
    }
  });
}

/**
 * A copy of the demo's coding-agent cell, off the board (ui_), whose episode 17 is running and throttled
 * now for an hour, after 14 events and a frame. Returns its folder.
 */
function throttledCell(runs: string): string {
  const from = join(runs, 'std_sdk_demo-model_full_default');
  const cell = join(runs, 'ui_throttled');
  copyDemo(from, cell);
  const run = JSON.parse(readFileSync(join(cell, 'run.json'), 'utf8'));
  writeFileSync(join(cell, 'run.json'), JSON.stringify({ ...run, run: 'ui_throttled' }));
  const summary = JSON.parse(readFileSync(join(cell, 'summary.json'), 'utf8'));
  const episodes = Object.fromEntries(Object.entries(summary.episodes).filter(([id]) => Number(id) < 17));
  writeFileSync(join(cell, 'summary.json'), JSON.stringify({ ...summary, run: 'ui_throttled', finished: false, episodes, aggregate: undefined }));
  const trajectory = join(cell, 'episodes', '0017', 'trajectory.jsonl');
  const now = Date.now() / 1000;
  const events = readFileSync(trajectory, 'utf8').split('\n').slice(0, 14).map((line) => ({ ...JSON.parse(line), t: now - 5 }));
  events.push({ seq: 14, t: now, ev: 'throttle', attempt: 1, wait_s: 3600 });
  writeFileSync(trajectory, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  return cell;
}
