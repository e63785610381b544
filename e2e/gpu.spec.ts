import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import { CLI, ROOT, scratchHome, startServing, type Served } from './processes';

const GPU = join(ROOT, 'main', 'gpu');

test.describe('GPU memory from nvidia-smi', () => {
  const home = scratchHome();
  let served: Served;
  test.beforeAll(async () => {
    served = await startServing(process.execPath, [CLI, 'serve', '--port', '0', '--no-demo'], {
      ...home.env,
      CELLWATCH_NVIDIA_SMI: join(GPU, 'fake', 'nvidia-smi'),
      FAKE_SMI_GPUS: join(GPU, 'fixtures', 'noheader-nounits', 'linux-x86_64__nvidia-h200__590.48.01__load.csv'),
    });
  });
  test.afterAll(async () => {
    await served?.stop();
    home.remove();
  });

  test('the top bar meters each GPU; the GPU view has its table and timeline', async ({ page }) => {
    await page.goto(served.url);
    await expect(page.getByRole('meter', { name: 'GPU0 memory' })).toHaveAttribute('aria-valuenow', '32362');
    await expect(page.locator('.topbar')).toContainText('GPU0');
    await expect(page.locator('.topbar')).toContainText('31.6/140.4 GiB');
    await page.getByLabel('Runs root path').fill(home.home);
    await page.getByRole('button', { name: 'Add root' }).click();
    await page.getByRole('tab', { name: 'GPU' }).click();
    await expect(page.getByRole('table', { name: 'GPUs' })).toContainText('NVIDIA H200');
    await expect(page.getByRole('figure', { name: 'GPU memory over time' }).locator('.recharts-line')).toHaveCount(1);
    await expect(page.getByLabel('Machine')).toContainText(/CPU [\d.]+%.*memory [\d.]+ \/ [\d.]+ GiB.*disk \//);
    // Polled every 5 s: from the second sample on, a chart with axes, a line for CPU, memory and each disk.
    const machine = page.getByRole('figure', { name: 'Machine over time' });
    // A line for each figure; one with no value yet (the CPU's first sample on a busy machine) is drawn empty.
    await expect.poll(() => machine.locator('.recharts-line').count()).toBeGreaterThanOrEqual(3);
    const drawn = () => machine.locator('.recharts-line-curve').evaluateAll((curves) => curves.filter((c) => c.getBoundingClientRect().width > 0).length);
    await expect.poll(drawn).toBeGreaterThanOrEqual(2);
    await expect(machine.locator('.recharts-legend-wrapper')).toContainText('cpu');
    await expect(machine.locator('.recharts-legend-wrapper')).toContainText('memory');
    await expect(machine.getByText('100%', { exact: true })).toBeVisible();
    await page.screenshot({ path: join(ROOT, 'out', 'test-results', 'gpu.png') });
  });
});
