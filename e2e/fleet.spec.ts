import { expect, test } from '@playwright/test';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSshd, type TestSshd } from '../main/ssh/testing';
import { CLI, ROOT, scratchHome, startServing, writeInstantDemo, type Served } from './processes';

test.describe('the Fleet view', () => {
  const home = scratchHome();
  let first: TestSshd;
  let second: TestSshd;
  let served: Served;
  test.beforeAll(async () => {
    [first, second] = await Promise.all([startSshd(), startSshd()]);
    writeInstantDemo(join(home.home, 'runs'), home);
    // One client home for both: the second host by its own alias and key, and a host nobody answers on.
    writeFileSync(join(first.home, '.ssh', 'known_hosts'), `${first.hostKeyLine}\n${second.hostKeyLine}\n`);
    appendFileSync(
      join(first.home, '.ssh', 'config'),
      `Host second\n  HostName 127.0.0.1\n  Port ${second.port}\n  IdentityFile ${join(second.home, '.ssh', 'id_ed25519')}\nHost gone\n  HostName 127.0.0.1\n  Port 9\n`,
    );
    const runs = join(home.home, 'runs');
    served = await startServing(process.execPath, [CLI, 'serve', '--port', '0', '--no-demo', `testhost:${runs}`, `second:${runs}`, 'gone:/srv/runs'], {
      ...home.env,
      HOME: first.home,
    });
  });
  test.afterAll(async () => {
    await served?.stop();
    await Promise.all([first?.stop(), second?.stop()]);
    home.remove();
  });

  test('lists every host with its state, and a click lists that host\'s cells', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(served.url);
    await page.getByRole('tab', { name: 'Fleet' }).click();
    const hosts = page.getByRole('table', { name: 'Hosts' });
    await expect(hosts.getByRole('row')).toHaveCount(5);
    await expect(hosts.getByRole('row', { name: 'local' })).toContainText('this machine');
    await expect(hosts.getByRole('row', { name: 'testhost' }).getByRole('status')).toContainText(/connected · [\d.]+ ms · inotify feed/);
    // On hover: what carries it, and that every command and stream runs in one python3 process there.
    await expect(hosts.getByRole('row', { name: 'testhost' }).getByRole('status')).toHaveAttribute('title', 'connected by ssh2; commands and streams through one python3 process');
    await expect(hosts.getByRole('row', { name: 'second' }).getByRole('status')).toContainText('connected');
    await expect(hosts.getByRole('row', { name: 'gone' }).getByRole('status')).toContainText(/reconnecting|connecting/);
    await expect(hosts.getByRole('row', { name: 'gone' })).toContainText('cannot reach gone');
    await expect(hosts.getByRole('row', { name: 'testhost' })).toContainText('0 / 10');
    await page.screenshot({ path: join(ROOT, 'out', 'test-results', 'fleet.png') });
    // A column hidden from the table's Columns menu.
    await page.getByLabel('Columns of fleet').click();
    await page.getByRole('checkbox', { name: 'Last 10 min' }).uncheck();
    await expect(hosts.getByRole('columnheader')).toHaveText(['Host', 'Connection', 'GPU memory', 'Running', 'Runs', 'Success', 'Last change', 'Problems']);
    await page.getByLabel('Columns of fleet').click();

    await hosts.getByRole('button', { name: 'second' }).click();
    await expect(page.getByRole('heading', { name: /Host second/ })).toBeVisible();
    const cells = page.getByRole('table', { name: 'Cells' });
    await expect(cells.getByRole('row')).toHaveCount(11);
    await expect(page).toHaveURL(/#\/cells\?host=second/);
  });
});
