import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import { instantDemoForSpecs, ROOT } from './processes';


test.describe('compare policy versions on one seed, and record it', () => {
  const served = instantDemoForSpecs();

  test('tick versions, play them on one clock, record an mp4 with a progress bar and a link', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('button', { name: 'cartpole_balance' }).click();
    // Its Overview charts each version's development success and evaluation score apart, never pooled: a point each.
    const scores = page.getByRole('figure', { name: 'Each version: development success and evaluation score (%)' });
    await expect(scores.locator('.recharts-line')).toHaveCount(2);
    await expect(scores.locator('.recharts-line-dots circle')).toHaveCount(8);
    await page.getByRole('tab', { name: 'Versions' }).click();
    // A version's source, and what changed from one to another.
    await page.getByRole('table', { name: 'Policy versions' }).getByRole('button', { name: 'v002' }).click();
    await expect(page.getByRole('region', { name: 'Source of v002' })).toContainText('def act(obs):');
    for (const v of ['v001', 'v002']) await page.getByLabel(`Compare ${v}`).check();
    await page.getByRole('button', { name: 'Diff v001 → v002' }).click();
    const diff = page.getByRole('region', { name: 'Changes from v001 to v002' });
    await expect(diff.locator('.diff-removed').first()).toContainText(/^- # v001/);
    await expect(diff.locator('.diff-added').first()).toContainText(/^\+ # v002/);
    await expect(diff.locator('.diff-same')).toContainText(['  def act(obs):']);
    await page.getByLabel('Compare v002').uncheck();
    await page.getByLabel('Compare v001').uncheck();
    for (const v of ['v001', 'v002', 'v004']) await page.getByLabel(`Compare ${v}`).check();
    await page.getByRole('button', { name: /^Compare 3 on one seed/ }).click();

    const view = page.getByRole('region', { name: 'Compare' });
    await expect(view.getByLabel('Slots')).toHaveValue('cartpole_balance:v001,cartpole_balance:v002,cartpole_balance:v004');
    await view.getByLabel('Seed').selectOption('900001');
    await expect(view.getByRole('figure')).toHaveCount(3);
    // The link holds the slots and the seed: a reload opens the same comparison.
    await expect(page).toHaveURL(/#\/compare\?slots=.*&seed=900001$/);
    await page.reload();
    await expect(view.getByLabel('Seed')).toHaveValue('900001');
    await expect(view.getByLabel('Slots')).toHaveValue('cartpole_balance:v001,cartpole_balance:v002,cartpole_balance:v004');
    await expect(view.getByRole('figure')).toHaveCount(3);
    await expect(view.getByRole('figure', { name: 'cartpole_balance v004' })).toContainText('success');
    // The clock's speed and the paused time are the link's too.
    await view.getByLabel('Speed').selectOption('2');
    for (let i = 0; i < 3; i++) await view.getByRole('button', { name: 'Next frame' }).click();
    await expect(view.locator('.frame-count')).toHaveText(/^4 \/ \d+ · 0\.12 s$/);
    await expect(page).toHaveURL(/&speed=2&t=0\.12$/);
    await page.reload();
    await expect(view.getByLabel('Speed')).toHaveValue('2');
    await expect(view.locator('.frame-count')).toHaveText(/^4 \/ \d+ · 0\.12 s$/);
    await view.getByLabel('Speed').selectOption('1');
    await view.getByRole('slider', { name: 'Frame' }).fill('0');
    // Each image says which camera it is.
    await expect(view.getByRole('figure', { name: 'cartpole_balance v001' }).locator('.camera-name')).toHaveText(['head', 'left_wrist', 'right_wrist']);

    const head = (v: string) => view.getByRole('img', { name: `cartpole_balance ${v} head` });
    await expect(head('v001')).toHaveAttribute('src', /000000\.png$/);
    await view.getByRole('button', { name: 'Next frame' }).click();
    await expect(head('v001')).toHaveAttribute('src', /000001\.png$/);
    await expect(head('v004')).toHaveAttribute('src', /000001\.png$/);
    await view.getByLabel('Speed').selectOption('4');
    await view.getByRole('button', { name: 'Play' }).click();
    await expect.poll(async () => Number(/(\d{6})\.png$/.exec((await head('v004').getAttribute('src')) ?? '')?.[1])).toBeGreaterThan(20);
    await page.screenshot({ path: join(ROOT, 'out', 'test-results', 'compare.png') });

    // Every value the progress bar takes, from the first render on, and whether the button was ever busy
    // (disabled, "Recording…"): a fast machine records 2 s in less than a poll of the page would see.
    await view.evaluate((element) => {
      const seen: number[] = [];
      const state = window as unknown as { progressSeen: number[]; recordBusy: boolean };
      state.progressSeen = seen;
      state.recordBusy = false;
      new MutationObserver(() => {
        const bar = element.querySelector('[role="progressbar"]');
        const value = bar && Number(bar.getAttribute('aria-valuenow'));
        if (value !== null && value !== seen.at(-1)) seen.push(value);
        const busy = [...element.querySelectorAll('button')].find((b) => b.textContent === 'Recording…');
        if (busy?.disabled) state.recordBusy = true;
      }).observe(element, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    await view.getByLabel('Recording length (s)').fill('2');
    await view.getByRole('button', { name: 'Record mp4' }).click();
    const link = view.getByRole('link', { name: /open the recording/ });
    await expect(link).toBeVisible({ timeout: 30_000 });
    await expect(view.getByRole('progressbar', { name: 'Recording' })).toHaveAttribute('aria-valuenow', '100');
    expect(await page.evaluate(() => (window as unknown as { recordBusy: boolean }).recordBusy)).toBe(true);
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
    expect(seen[0]).toBe(0);
    expect(seen.at(-1)).toBe(100);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    const response = await page.request.get(new URL((await link.getAttribute('href')) as string, page.url()).toString());
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('video/mp4');
    expect((await response.body()).subarray(4, 8).toString()).toBe('ftyp');
    // It plays inline, where it was made: its length is known, 2 s.
    const video = view.locator('video.recording');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
    expect(await video.evaluate((v: HTMLVideoElement) => Math.round(v.duration))).toBe(2);
    // And on its own, at its URL: no CORS refusal of its own video.
    const alone = await page.context().newPage();
    const refused: string[] = [];
    alone.on('console', (message) => message.type() === 'error' && refused.push(message.text()));
    await alone.goto(new URL((await link.getAttribute('href')) as string, page.url()).toString());
    await expect.poll(() => alone.evaluate(() => document.querySelector('video')?.readyState ?? -1)).toBeGreaterThanOrEqual(1);
    expect(refused).toEqual([]);
    await alone.close();
    // Another seed is another comparison: the link to this one's recording goes.
    const seeds = await view.getByLabel('Seed').locator('option').allTextContents();
    await view.getByLabel('Seed').selectOption(seeds.find((s) => s !== '900001') as string);
    await expect(link).toHaveCount(0);
  });

  test("an evopolicygym record's programs: the selected one marked, a snapshot's files, the change between two", async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('button', { name: 'cartpole_evo' }).click();
    await page.getByRole('tab', { name: 'Programs' }).click();
    const programs = page.getByRole('table', { name: 'Programs' });
    await expect(programs.getByRole('row')).toHaveCount(4);
    await expect(programs.getByRole('row', { name: /submission-000003/ })).toContainText('selected');
    await expect(programs.getByRole('row', { name: /submission-000004/ })).not.toContainText('selected');
    await programs.getByRole('button', { name: 'submission-000003' }).click();
    const source = page.getByRole('region', { name: 'Source of submission-000003' });
    await expect(source.locator('.code-file')).toHaveText(['NOTES.md', 'policy.py']);
    await expect(source).toContainText('def act(obs):');
    await page.getByLabel('Diff submission-000001').check();
    await page.getByLabel('Diff submission-000003').check();
    await page.getByRole('button', { name: 'Diff submission-000001 → submission-000003' }).click();
    const diff = page.getByRole('region', { name: 'Changes from submission-000001 to submission-000003' });
    await expect(diff.locator('.code-file')).toHaveText(['NOTES.md (added)', 'policy.py']);
    await expect(diff.locator('.diff-removed')).toContainText(['- K = np.array([0.5, 1.2, 24, 3])']);
    await expect(diff.locator('.diff-added').last()).toContainText('+ K = np.array([0.6, 1.6, 36, 6])');
    await expect(page).toHaveURL(/tab=programs/);
    await page.screenshot({ path: join(ROOT, 'out', 'test-results', 'programs.png') });

    // A submission in the Episodes tab: its episodes, charge and each episode's return, and its feedback file.
    await page.getByRole('tab', { name: 'Episodes' }).click();
    await page.locator('.episode-table').getByRole('row', { name: /submission-000003/ }).click();
    const facts = page.getByRole('region', { name: 'Episode submission-000003' });
    await expect(facts.locator('dl')).toContainText('episodes10: 10, 11, 12, 13, 14, 15, 16, 17, 18, 19');
    await expect(facts.locator('dl')).toContainText('charged10');
    await expect(facts.locator('dl')).toContainText(/episode 10(success|failure) · return [\d.]+ · \d+ steps/);
    await facts.getByRole('button', { name: 'feedback/submission-000003.json' }).click();
    await expect(facts.getByLabel('Lines of feedback/submission-000003.json')).toContainText('"charged": 10');
    await page.screenshot({ path: join(ROOT, 'out', 'test-results', 'submission.png') });
  });

  test('a slot without frames for the seed says so in its own tile while the others show theirs', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('tab', { name: 'Compare' }).click();
    const view = page.getByRole('region', { name: 'Compare' });
    // The interrupted session was never evaluated: it has frames of a development episode only.
    await view.getByLabel('Slots').fill('cartpole_balance:v001,cartpole_swingup:v001');
    await view.getByRole('button', { name: 'Show' }).click();
    await expect(view.getByRole('figure')).toHaveCount(2);
    await view.getByLabel('Seed').selectOption('900001');
    const missing = view.getByRole('figure', { name: 'cartpole_swingup v001' });
    await expect(missing.locator('.no-frames')).toHaveText(/^no frames for this seed; it has frames for seed 620008$/);
    await expect(view.getByRole('figure', { name: 'cartpole_balance v001' }).getByRole('img')).toHaveCount(3);
    await expect(view).toContainText('To record, choose a seed every slot has frames for (620008): cartpole_swingup:v001 has none for seed 900001.');
    await expect(view.getByLabel('Seed').locator('option', { hasText: '900001' })).toHaveText('seed 900001 · not in every slot');
  });

  test('a slot that names no cell says so', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('tab', { name: 'Compare' }).click();
    await page.getByLabel('Slots').fill('nothing:v001');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(page.getByRole('alert')).toContainText('no cell with policy versions is named or found by "nothing"');
  });
});
