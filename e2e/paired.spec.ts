import { expect, test, type Page } from '@playwright/test';
import { join } from 'node:path';
import { instantDemoForSpecs, ROOT } from './processes';

/** Types a few letters of a side into its searchable picker and chooses the match. */
async function pick(page: Page, side: 'A' | 'B', query: string, label: string): Promise<void> {
  await page.getByLabel(`Run ${side}`).fill(query);
  await page.getByRole('listbox', { name: `Choices for ${side}` }).getByRole('option', { name: new RegExp(`^${label.replace(/[.@]/g, '\\$&')}`) }).click();
  await expect(page.getByLabel(`Run ${side}`)).toHaveValue(label);
}

test.describe('paired McNemar view', () => {
  const served = instantDemoForSpecs();

  test('two conditions of one model: the table, the p-value, the sentence and the episodes that differ', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('tab', { name: 'Paired test' }).click();
    await pick(page, 'A', 'bare', 'std_sdk_demo-model_bare_default');
    await pick(page, 'B', 'demo full', 'std_sdk_demo-model_full_default');

    // The demo is deterministic: over 98 paired episodes both succeed on 44, only B on 42, neither on 12;
    // the exact two-sided p is 2 * 0.5^42. Episodes 12 (A rate-limited) and 18 (infra error) are excluded.
    const outcomes = page.getByRole('table', { name: 'Paired outcomes' });
    await expect(outcomes.getByRole('row').nth(1).getByRole('cell')).toHaveText(['44', '0']);
    await expect(outcomes.getByRole('row').nth(2).getByRole('cell')).toHaveText(['42', '12']);
    await expect(page.locator('.figures')).toContainText('pairs98');
    await expect(page.getByLabel('p-value')).toHaveText('4.5e-13');
    await expect(page.getByLabel('Verdict')).toHaveText(/^B wins 42 episodes that A fails and loses 0; p = 4\.5e-13/);
    await expect(page.getByLabel('Discordant episodes').getByRole('listitem')).toHaveCount(42);
    // Green is success and red failure on both sides; A and B are said in words.
    const chip = page.getByLabel('Discordant episodes').getByRole('listitem').first();
    await expect(chip.locator('.tone-fail')).toHaveText('A ✗');
    await expect(chip.locator('.tone-ok')).toHaveText('B ✓');
    // Over the 98 paired episodes, a side's rate is not the list's (over every episode it scored): said.
    await expect(page.locator('.figures')).toContainText('over the paired episodes (the list:');
    await expect(page.getByLabel('Excluded episodes').getByRole('listitem')).toHaveText(['12 A rate_limited', '18 A infra_error B infra_error']);

    // A discordant episode opens on both sides: each side's own events for that episode.
    const first = page.getByLabel('Discordant episodes').getByRole('button').first();
    const episode = ((await first.textContent()) ?? '').split(' ')[0] as string;
    await first.click();
    for (const [label, name] of [['A', 'std_sdk_demo-model_bare_default'], ['B', 'std_sdk_demo-model_full_default']]) {
      const side = page.getByRole('region', { name: `${label}: ${name}, episode ${episode}` });
      await expect(side.getByRole('log', { name: 'Events' })).toContainText('episode_end');
      await expect(side.getByRole('heading', { name: `Episode ${episode}` })).toBeVisible();
    }
    // The first divergence: both transcripts aligned by action, the first step they differ and each side's context there.
    const divergence = page.getByRole('region', { name: 'First divergence' });
    await expect(divergence.locator('.divergence-summary')).toContainText(/^At step \d+ \(\d+ alike before it, of \d+ and \d+ actions\): (the same tool with other arguments|a different tool|A's actions had ended|B's actions had ended)\./);
    const [actionA, actionB] = await divergence.locator('.divergence-summary code').allTextContents();
    expect(actionA).not.toBe(actionB);
    for (const label of ['A', 'B']) await expect(divergence.getByRole('region', { name: `${label} at the divergence` }).locator('[aria-current="true"]')).toHaveCount(1);
    await page.screenshot({ path: join(ROOT, 'out', 'test-results', 'paired.png') });

    await page.getByRole('button', { name: 'Swap A and B' }).click();
    await expect(page.getByLabel('Verdict')).toHaveText(/^B wins 0 episodes that A fails and loses 42;/);

    // A run against itself is refused, with the reason.
    await pick(page, 'B', 'demo full', 'std_sdk_demo-model_full_default');
    await expect(page.getByRole('alert')).toHaveText(/same run/);
  });

  test('two policy versions of the bigym cell', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('tab', { name: 'Paired test' }).click();
    await pick(page, 'A', 'cartpole v001', 'cartpole_balance @ v001');
    await pick(page, 'B', 'v004', 'cartpole_balance @ v004');
    // 15 seeds that v004 solves and v001 fails, none the other way: p = 2 * 0.5^15.
    await expect(page.getByLabel('p-value')).toHaveText('6.1e-5');
    // Each side's units are its evaluation's seeds, and the view says so.
    await expect(page.getByLabel('Discordant seeds').getByRole('listitem')).toHaveCount(15);
    await expect(page.getByLabel('Verdict')).toHaveText(/^B wins 15 seeds that A fails and loses 0; p = 6\.1e-5: a real difference/);
    // A policy version's side of a discordant seed is its replay, when the seed was replayed.
    await page.getByLabel('Discordant seeds').getByRole('button', { name: /^900001 / }).click();
    await expect(page.getByRole('region', { name: 'A: cartpole_balance@v001, episode 900001' }).getByRole('img', { name: 'head frame 1' })).toBeVisible();
  });

  test("two agents of the NeMo Gym collection, paired on the rollouts both ran", async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('tab', { name: 'Paired test' }).click();
    await pick(page, 'A', 'rollouts codex', 'rollouts @ demo_codex_agent');
    await pick(page, 'B', 'rollouts claude', 'rollouts @ demo_claude_code_agent');
    // The demo is deterministic: of 23 paired rollouts both pass 9, only A 3, only B 10, neither 1 (exact
    // two-sided p 0.092); A's 3#1 failed on a sandbox timeout and is left out.
    const outcomes = page.getByRole('table', { name: 'Paired outcomes' });
    await expect(outcomes.getByRole('row').nth(1).getByRole('cell')).toHaveText(['9', '3']);
    await expect(outcomes.getByRole('row').nth(2).getByRole('cell')).toHaveText(['10', '1']);
    await expect(page.getByLabel('p-value')).toHaveText('0.092');
    await expect(page.getByLabel('Excluded rollouts').getByRole('listitem')).toHaveText(['3#1 A failed: sandbox_timeout']);
    await expect(page.getByLabel('Verdict')).toHaveText('B wins 10 rollouts that A fails and loses 3; p = 0.092: no evidence of a difference at the 5% level.');
    await expect(page.getByRole('heading', { name: /^Discordant rollouts \(13\)/ })).toBeVisible();
    // A's rate over the 23 paired rollouts is not its own over the 24 it scored (its square on the board): said.
    await expect(page.locator('.figures')).toContainText('82.6% over the paired rollouts (the list: 83.3% over all it scored)');
  });
});
