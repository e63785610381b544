import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import { startSshd, type TestSshd } from '../main/ssh/testing';
import { CLI, ROOT, scratchHome, startServing, writeInstantDemo, type Served } from './processes';

test.describe('a runs root on an SSH host', () => {
  const home = scratchHome();
  let sshd: TestSshd;
  let served: Served;
  test.beforeAll(async () => {
    sshd = await startSshd();
    writeInstantDemo(join(home.home, 'runs'), home);
    served = await startServing(process.execPath, [CLI, 'serve', '--port', '0', '--no-demo'], { ...home.env, HOME: sshd.home });
  });
  test.afterAll(async () => {
    await served?.stop();
    await sshd?.stop();
    home.remove();
  });

  test('asks for the host key by fingerprint, lists the remote cells, counts down while the host is down, reconnects', async ({ page }) => {
    await page.goto(served.url);
    await page.getByLabel('Runs root path').fill(`testhost:${join(home.home, 'runs')}`);
    await page.getByRole('button', { name: 'Add root' }).click();
    const host = page.getByRole('region', { name: 'Host testhost' });
    await expect(host.getByRole('alert')).toContainText(/Unknown host key SHA256:\S+/);
    await host.getByRole('button', { name: 'Accept key' }).click();
    await expect(host.getByRole('status')).toHaveText('connected');
    const table = page.getByRole('table', { name: 'Cells' });
    await expect(table.getByRole('row')).toHaveCount(11);
    await expect(table).toContainText('cartpole_balance');

    await table.getByRole('button', { name: 'cartpole_balance' }).click();
    await page.getByRole('tab', { name: 'Episodes' }).click();
    await expect(page.getByRole('img', { name: 'head frame 1' })).toBeVisible();
    await expect.poll(() => page.getByRole('img', { name: 'head frame 1' }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(84);

    // The host goes down: the row counts down to each retry, the status bar says it in one word.
    await sshd.down();
    const state = host.getByRole('status');
    await expect(state).toHaveText(/^reconnecting in [2-9] s$/);
    await expect(page.locator('footer')).toContainText('testhost reconnecting');
    // It counts down: some second is followed by the one below it (a retry that fails starts a longer wait).
    const seconds = async () => Number(/in (\d+) s/.exec((await state.textContent()) ?? '')?.[1] ?? NaN);
    let last = await seconds();
    await expect
      .poll(
        async () => {
          const now = await seconds();
          const down = now === last - 1;
          last = now;
          return down;
        },
        { intervals: [200], timeout: 15_000 },
      )
      .toBe(true);
    await sshd.up();
    await expect(state).toHaveText('connected', { timeout: 20_000 });
    await expect(page.locator('footer')).toContainText('testhost connected');
    await page.screenshot({ path: join(ROOT, 'out', 'test-results', 'remote.png') });
  });
});
