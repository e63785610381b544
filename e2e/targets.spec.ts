import { expect, test } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startSlurm, type TestSlurm } from '../main/launch/slurm-testing';
import { startSshd, type TestSshd } from '../main/ssh/testing';
import { CLI, ROOT, scratchHome, startServing, type Served } from './processes';

test.describe('launch targets: this machine, an SSH host, Slurm', () => {
  const home = scratchHome();
  let slurm: TestSlurm;
  let sshd: TestSshd;
  let served: Served;
  test.beforeAll(async () => {
    slurm = await startSlurm();
    sshd = await startSshd({ trusted: true });
    const remote = join(home.home, 'remote-runs');
    mkdirSync(remote);
    // A root on the host makes it one of the Hosts the dialog offers.
    served = await startServing(process.execPath, [CLI, 'serve', '--port', '0', '--no-demo', `testhost:${remote}`], {
      ...home.env,
      HOME: sshd.home,
      SLURM_CONF: slurm.conf,
    });
  });
  test.afterAll(async () => {
    await served?.stop();
    await sshd?.stop();
    await slurm?.stop();
    home.remove();
  });

  test('the dialog offers each kind of target; a Slurm job shows its state in the cell header and in Runs, and Stop cancels it', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(served.url);
    await page.getByRole('button', { name: 'Launch' }).click();
    const dialog = page.getByRole('dialog', { name: 'Launch a UI run' });
    const target = dialog.getByLabel('Target');
    await expect(target.locator('option')).toHaveText(['This machine', 'SSH host testhost', 'Slurm (sbatch here)', 'Slurm via testhost']);

    await target.selectOption('testhost');
    await dialog.getByRole('button', { name: 'Dry run' }).click();
    await expect(dialog.getByLabel('Dry run')).toContainText('on testhost');

    await target.selectOption('slurm');
    await dialog.getByLabel('Speed').fill('4');
    await dialog.getByLabel('Run label').fill('e2e');
    await dialog.getByLabel('Time (--time)').fill('30:00');
    await dialog.getByRole('button', { name: 'Dry run' }).click();
    await expect(dialog.getByLabel('Dry run')).toContainText('sbatch --parsable --job-name ui_demo_coding-agent_e2e');
    await expect(dialog.getByLabel('Dry run')).toContainText('--time 30:00');
    await page.screenshot({ path: join(ROOT, 'out', 'test-results', 'launch-slurm.png') });
    await dialog.getByRole('button', { name: 'Launch', exact: true }).click();

    await expect(page.getByRole('heading', { name: 'ui_demo_coding-agent_e2e' })).toBeVisible({ timeout: 20_000 });
    const header = page.getByLabel('Launched run');
    await expect(header).toContainText(/running · on slurm · job \d+ on \S+/);

    await page.keyboard.press('Escape');
    await page.getByRole('tab', { name: 'Runs' }).click();
    const row = page.getByRole('table', { name: 'Launched runs' }).getByRole('row', { name: 'ui_demo_coding-agent_e2e' });
    await expect(row).toContainText('slurm');
    await expect(row).toContainText(/job \d+ on \S+/);
    await page.screenshot({ path: join(ROOT, 'out', 'test-results', 'runs.png') });
    // Asked in a row, the confirmation floats under its buttons: no column of the table moves.
    const columns = () => row.getByRole('cell').evaluateAll((cells) => cells.map((c) => Math.round(c.getBoundingClientRect().width)));
    const widths = await columns();
    await row.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect(page.getByRole('group', { name: 'Confirm stop' })).toBeVisible();
    expect(await columns()).toEqual(widths);
    await page.getByRole('group', { name: 'Confirm stop' }).getByRole('button', { name: 'Stop run' }).click();
    await expect(row).toContainText('stopped (CANCELLED)');
    expect(slurm.run('squeue', ['-h', '-o', '%j'])).not.toContain('ui_demo_coding-agent_e2e');

    await row.getByRole('button', { name: 'ui_demo_coding-agent_e2e' }).click();
    await expect(page.getByLabel('Launched run')).toContainText('stopped (CANCELLED)');
  });
});
