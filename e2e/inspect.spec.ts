import { expect, test } from '@playwright/test';
import { instantDemoForSpecs } from './processes';

const MINI = '2026-12-01T10-00-00+00-00_demo-arith_demo-mini';
const SONNET = '2026-12-01T10-00-00+00-00_demo-arith_demo-sonnet';
/** A name as the start of an accessible name. */
const starts = (name: string) => new RegExp(`^${name.replace(/[+.]/g, '\\$&')}`);

test.describe("the demo's Inspect AI logs", () => {
  const served = instantDemoForSpecs();

  test('two models on one task: each log a cell, a sample as its transcript, a board of their own, the paired test', async ({ page }) => {
    await page.goto(served.url);
    const table = page.getByRole('table', { name: 'Cells' });
    const row = table.getByRole('row', { name: starts(SONNET) });
    await expect(row).toContainText('inspect');
    await expect(row).toContainText('20/20');
    await row.getByRole('cell').first().click();
    await expect(page.getByRole('heading', { name: SONNET })).toBeVisible();
    // 17 of its 20 samples right (C): the success rate, its interval, and the mean value of the scorer beside it.
    await expect(page.getByText('17/20 · 85.0% · 95% CI 64.0–94.8%')).toBeVisible();
    await expect(page.getByText('mean match 0.85 of 20')).toBeVisible();
    // Its Overview charts each sample's tokens, in and out, a bar each.
    await expect(page.getByRole('figure', { name: 'Tokens per unit, in and out' }).locator('.recharts-bar-rectangle')).toHaveCount(20);
    // And its estimated spend per hour: each sample's tokens at the model's list price, by the hour it completed (one every 9 minutes from 10:09).
    const spend = page.getByRole('figure', { name: 'Est. spend per hour at list prices ($), by when units ended' });
    await expect(spend.locator('.recharts-bar-rectangle')).toHaveCount(4);
    // Its axis in steps a reader can add up, each amount to the digits it needs (about half a cent an hour here).
    await expect(spend.locator('.recharts-yAxis-tick-labels text')).toHaveText(['$0', '$0.002', '$0.004', '$0.006', '$0.008']);
    await expect(page.locator('.cell-header')).toContainText('anthropic/demo-sonnet');

    // Each sample a row of the Episodes tab; one opens as its transcript: the question, the call with its result, the score.
    await page.getByRole('tab', { name: 'Episodes' }).click();
    await page.getByRole('table', { name: 'Episodes' }).getByRole('row', { name: '3#1', exact: true }).click();
    await page.getByRole('button', { name: 'Open the transcript of 3#1' }).click();
    const transcript = page.getByRole('region', { name: 'Transcript of 3#1' });
    await expect(transcript).toContainText('What is 39 * 12? Answer with the number only.');
    await expect(transcript.locator('.turn-call')).toContainText('"code": "print(39 * 12)"');
    await expect(transcript).toContainText(/match \(the outcome\): "[CI]"/);
    // Each model call says what it was sent (log v3: ranges into the sample's message pool) and its tokens.
    await expect(transcript.locator('.turn-message').last()).toContainText('sent 3 messages · 40 tokens in, 4 out');
    // Its timeline: the two model calls and the tool call as bars on the sample's clock; a click goes to the call.
    const timeline = transcript.getByRole('figure', { name: 'Timeline' });
    await expect(timeline.getByRole('group', { name: 'Timeline model' }).getByRole('button')).toHaveCount(2);
    await timeline.getByRole('group', { name: 'Timeline tools' }).getByRole('button', { name: /^python at \+\d/ }).click();
    await expect(transcript.locator('[aria-current="true"]')).toContainText('print(39 * 12)');
    await transcript.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Back to the cell list (Esc)' }).click();

    // Its board: the task, the two models across.
    await page.getByRole('tab', { name: 'Board' }).click();
    await page.getByRole('combobox', { name: 'Board', exact: true }).selectOption('inspect demo_arith');
    const grid = page.getByRole('table', { name: 'Board inspect demo_arith' });
    await expect(grid.getByRole('columnheader')).toHaveText(['harness · condition · effort', 'anthropic/demo-sonnet', 'openai/demo-mini']);
    await expect(grid.getByRole('button', { name: starts(SONNET) })).toContainText('17/20');
    await expect(grid.getByRole('button', { name: starts(MINI) })).toContainText('14/20');
    // The cost frontier: the cheaper model and the better one are both Pareto-best, at their tokens' list prices.
    const frontier = page.getByRole('region', { name: 'Cost frontier' });
    await expect(frontier.getByRole('heading')).toContainText('2 of 2 Pareto-best');
    await expect(frontier.getByRole('table', { name: 'Pareto-best cells' }).getByRole('row').nth(1)).toContainText(MINI);
    await expect(frontier.getByRole('table', { name: 'Pareto-best cells' }).getByRole('row').nth(2)).toContainText(SONNET);
    // 3 to 6 with both logs done: no unit left can decide it.
    await expect(page.getByRole('table', { name: 'Comparisons' }).getByRole('row').nth(1).getByRole('cell').last()).toHaveText('futile: none left');

    // The two logs paired on <id>#<epoch>: the same table `cellwatch mcnemar` prints.
    await page.getByRole('tab', { name: 'Paired test' }).click();
    for (const [side, name] of [['A', MINI], ['B', SONNET]] as const) {
      await page.getByLabel(`Run ${side}`).fill(name.slice(-6));
      await page.getByRole('listbox', { name: `Choices for ${side}` }).getByRole('option', { name: starts(name) }).click();
    }
    const outcomes = page.getByRole('table', { name: 'Paired outcomes' });
    await expect(outcomes.getByRole('row').nth(1).getByRole('cell')).toHaveText(['11', '3']);
    await expect(outcomes.getByRole('row').nth(2).getByRole('cell')).toHaveText(['6', '0']);
    await expect(page.getByLabel('p-value')).toHaveText('0.51');
  });

  test('the scorer its outcomes are read by, picked in the cell view, is what the list says too, and goes back', async ({ page }) => {
    await page.goto(served.url);
    const table = page.getByRole('table', { name: 'Cells' });
    await table.getByRole('row', { name: starts(SONNET) }).getByRole('cell').first().click();
    const pick = page.getByRole('combobox', { name: 'Outcome by scorer' });
    await expect(pick).toHaveValue('match');
    await expect(pick.getByRole('option')).toHaveText(['match (its first)', 'includes']);
    // The lenient scorer passes the 17 that match, and the demo's samples 3, 6 and 9 whatever they answered.
    await pick.selectOption('includes');
    await expect(page.getByText(/^mean includes 0\.\d+ of 20$/)).toBeVisible();
    const header = (await page.locator('.cell-header').textContent()) ?? '';
    const rate = /(\d+)\/20 · (\d+\.\d)%/.exec(header);
    expect(Number(rate?.[1])).toBeGreaterThan(17);
    await page.getByRole('button', { name: 'Back to the cell list (Esc)' }).click();
    await expect(table.getByRole('row', { name: starts(SONNET) })).toContainText(`${rate?.[2]}%`);
    // Its first again: 17 of 20.
    await table.getByRole('row', { name: starts(SONNET) }).getByRole('cell').first().click();
    await page.getByRole('combobox', { name: 'Outcome by scorer' }).selectOption('match');
    await expect(page.getByText('17/20 · 85.0% · 95% CI 64.0–94.8%')).toBeVisible();
  });
});
