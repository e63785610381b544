import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, scratchHome, serveInstantDemo, type Served } from './processes';

const cli = join(ROOT, 'out', 'cli.mjs');

test.describe('paired McNemar view', () => {
  const home = scratchHome();
  let runs: string;
  let served: Served;

  test.beforeAll(async () => {
    ({ runs, served } = await serveInstantDemo(home));
  });
  test.afterAll(async () => {
    await served?.stop();
    home.remove();
  });

  test('two conditions of one model: the table, the p-value, the sentence and the episodes that differ', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('tab', { name: 'Paired test' }).click();
    await page.getByLabel('Run A').selectOption({ label: 'std_sdk_demo-model_bare_default' });
    await page.getByLabel('Run B').selectOption({ label: 'std_sdk_demo-model_full_default' });

    const expected = JSON.parse(
      execFileSync(process.execPath, [cli, 'mcnemar', '--json', join(runs, 'std_sdk_demo-model_bare_default'), join(runs, 'std_sdk_demo-model_full_default')], { encoding: 'utf8' }),
    );
    const outcomes = page.getByRole('table', { name: 'Paired outcomes' });
    await expect(outcomes.getByRole('row').nth(1)).toContainText(`${expected.both}${expected.only_a}`);
    await expect(outcomes.getByRole('row').nth(2)).toContainText(`${expected.only_b}${expected.neither}`);
    await expect(page.getByLabel('Verdict')).toHaveText(new RegExp(`^B wins ${expected.only_b} episodes that A fails and loses ${expected.only_a}; p = `));
    await expect(page.getByLabel('Discordant episodes').getByRole('listitem')).toHaveCount(expected.only_a + expected.only_b);
    await expect(page.getByLabel('Excluded episodes').getByRole('listitem')).toHaveCount(expected.excluded.length);

    // A discordant episode opens on both sides: each side's own events for that episode.
    const first = page.getByLabel('Discordant episodes').getByRole('button').first();
    const episode = ((await first.textContent()) ?? '').split(' ')[0] as string;
    await first.click();
    for (const [label, name] of [['A', 'std_sdk_demo-model_bare_default'], ['B', 'std_sdk_demo-model_full_default']]) {
      const side = page.getByRole('region', { name: `${label}: ${name}, episode ${episode}` });
      await expect(side.getByRole('log', { name: 'Events' })).toContainText('episode_end');
      await expect(side.getByRole('heading', { name: `Episode ${episode}` })).toBeVisible();
    }
    await page.screenshot({ path: join(ROOT, 'out', 'test-results', 'paired.png') });

    await page.getByRole('button', { name: 'Swap A and B' }).click();
    await expect(page.getByLabel('Verdict')).toHaveText(new RegExp(`^B wins ${expected.only_a} episodes that A fails and loses ${expected.only_b};`));
  });

  test('two policy versions of the bigym cell', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('tab', { name: 'Paired test' }).click();
    await page.getByLabel('Run A').selectOption({ label: 'cartpole_balance @ v001' });
    await page.getByLabel('Run B').selectOption({ label: 'cartpole_balance @ v004' });
    await expect(page.getByLabel('p-value')).toHaveText(/^\d|e/);
    await expect(page.getByLabel('Verdict')).toContainText('a real difference');
    // A policy version's side of a discordant seed is its replay, when the seed was replayed.
    await page.getByLabel('Discordant episodes').getByRole('button', { name: /^900001 / }).click();
    await expect(page.getByRole('region', { name: 'A: cartpole_balance@v001, episode 900001' }).getByRole('img', { name: 'head frame 1' })).toBeVisible();
  });
});
