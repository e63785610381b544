import { expect, test } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, scratchHome, startServing, type Served } from './processes';

test.describe('launch a UI run', () => {
  const home = scratchHome();
  let served: Served;
  test.beforeAll(async () => {
    const gpus = join(home.home, 'gpus.csv');
    writeFileSync(gpus, '0, NVIDIA H200, 143771, 140000, 3000, 90\n1, NVIDIA H200, 143771, 16959, 126199, 10\n');
    served = await startServing(process.execPath, [join(ROOT, 'out', 'cli.mjs'), 'serve', '--port', '0', '--no-demo'], {
      ...home.env,
      CELLWATCH_NVIDIA_SMI: join(ROOT, 'main', 'gpu', 'fake', 'nvidia-smi'),
      FAKE_SMI_GPUS: gpus,
    });
  });
  test.afterAll(async () => {
    await served?.stop();
    home.remove();
  });

  test('profile and knobs, ui_ name, GPU with most free memory, dry run, launch into a live cell, stop', async ({ page }) => {
    await page.goto(served.url);
    await expect(page.getByRole('meter', { name: 'GPU1 memory' })).toBeVisible();
    await page.getByRole('button', { name: 'Launch' }).click();
    const dialog = page.getByRole('dialog', { name: 'Launch a UI run' });

    await dialog.getByLabel('Profile').selectOption('coding-agent');
    await expect(dialog.getByLabel('GPU 1')).toBeChecked();
    await dialog.getByLabel('Run name').fill('ui_std_trial run');
    await expect(dialog.getByLabel('Run name')).toHaveValue('std_trial-run');
    await dialog.getByLabel('Condition').selectOption('nav');
    await dialog.getByRole('button', { name: 'Dry run' }).click();
    await expect(dialog.getByLabel('Dry run')).toContainText('python coding-agent/stdrun.py run ui_std_trial-run --nonstd');
    await expect(dialog.getByLabel('Dry run')).toContainText('CUDA_VISIBLE_DEVICES=1');
    await dialog.getByLabel('GPU 0').check();
    await dialog.getByRole('button', { name: 'Dry run' }).click();
    await expect(dialog.getByLabel('Dry run')).toContainText('Would be refused: GPU 0 has 3000 MiB free, below the 6000 MiB minimum');
    await page.screenshot({ path: join(ROOT, 'out', 'test-results', 'launch.png') });

    await dialog.getByLabel('Profile').selectOption('demo');
    await dialog.getByLabel('Run name').fill('');
    await dialog.getByLabel('Speed').fill('4');
    await dialog.getByRole('button', { name: 'Launch', exact: true }).click();
    const heading = page.getByRole('heading', { name: /^ui_demo_coding-agent_/ });
    await expect(heading).toBeVisible({ timeout: 20_000 });
    await expect(page.locator('.cell-header .badge')).toHaveText('ui run');
    const budget = page.getByRole('meter', { name: 'episodes' });
    await expect.poll(async () => Number(await budget.getAttribute('aria-valuenow')), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect(page.locator('.run-controls')).toContainText('running');
    await page.locator('.run-controls').getByRole('button', { name: 'Stop' }).click();
    await expect(page.locator('.run-controls')).toContainText('stopped', { timeout: 15_000 });
  });
});
