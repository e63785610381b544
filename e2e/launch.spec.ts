import { expect, test } from '@playwright/test';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, scratchHome, startServing, type Served } from './processes';
import { nemoStandIn } from '../runners/testing';

test.describe('launch a UI run', () => {
  const home = scratchHome();
  let served: Served;
  test.beforeAll(async () => {
    const gpus = join(home.home, 'gpus.csv');
    writeFileSync(gpus, '0, NVIDIA H200, 143771, 140000, 3000, 90\n1, NVIDIA H200, 143771, 16959, 126199, 10\n');
    // A profile of the user's own whose run drains: on SIGUSR1 it prints its resume spec and exits 0.
    const profiles = join(home.home, '.config', 'cellwatch', 'profiles');
    mkdirSync(profiles, { recursive: true });
    writeFileSync(
      join(profiles, 'drainable.yaml'),
      [
        'name: drainable',
        'description: writes a coding-agent cell until asked to drain',
        'format: coding-agent',
        'gpu: false',
        'drain: sentinel',
        'resume_knob: episodes',
        'knobs:',
        '  - { key: root, label: Runs root, default: "{dataDir}/ui-runs" }',
        '  - { key: episodes, label: Episodes, default: "" }',
        'run_name: "ui_drainable_{stamp}"',
        `command: [sh, -c, "mkdir -p {cell} && printf '{\\"runner\\": \\"coding-agent\\"}' > {cell}/run.json && echo episodes=[{episodes}] && trap 'echo resume: stdrun.py run {name} --episodes 7,8; exit 0' USR1 && while true; do echo tick >> {cell}/driver.log; sleep 0.2; done"]`,
        'cwd: "{root}"',
        'cell: "{root}/{name}"',
      ].join('\n'),
    );
    // NeMo Gym's collector, a stand-in that is cut short after 3 of its 5 rollouts and resumes from its cache.
    nemoStandIn(join(home.home, 'bin'));
    served = await startServing(process.execPath, [CLI, 'serve', '--port', '0', '--no-demo'], {
      ...home.env,
      PATH: `${join(home.home, 'bin')}:${process.env.PATH}`,
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
    await dialog.getByLabel('Run label').fill('ui_trial run');
    await expect(dialog.getByLabel('Run label')).toHaveValue('trial-run');
    await dialog.getByLabel('Condition').selectOption('nav');
    await dialog.getByRole('button', { name: 'Dry run' }).click();
    // The label ends the name; harness, model, condition and effort stay in it.
    await expect(dialog.getByLabel('Dry run')).toContainText('python coding-agent/stdrun.py run ui_sdk_fable-5_nav_default_trial-run --nonstd');
    await expect(dialog.getByLabel('Dry run')).toContainText('CUDA_VISIBLE_DEVICES=1');
    // Narrow, the command wraps between its arguments, never inside one: each is one line high.
    await page.setViewportSize({ width: 1024, height: 700 });
    const boxes = await dialog.getByLabel('Dry run').locator('.arg').evaluateAll((args) => args.map((a) => a.getBoundingClientRect()).map((r) => ({ top: r.top, height: r.height })));
    expect(new Set(boxes.map((b) => b.top)).size, 'the command wraps').toBeGreaterThan(1);
    expect(new Set(boxes.map((b) => b.height)).size, `argument heights ${boxes.map((b) => b.height).join(', ')}`).toBe(1);
    await dialog.getByLabel('GPU 0').check();
    await dialog.getByRole('button', { name: 'Dry run' }).click();
    // Each thing that would stop it, said apart: the checkout has no coding-agent/stdrun.py, the GPU picked is
    // too full (and, on a machine without python, that too).
    const plan = dialog.getByLabel('Dry run');
    await expect(plan).toContainText('Would be refused: ');
    await expect(plan).toContainText(`no coding-agent/stdrun.py in ${home.home}; GPU 0 has 3000 MiB free, below the 6000 MiB minimum`);
    await page.screenshot({ path: join(ROOT, 'out', 'test-results', 'launch.png') });

    await dialog.getByLabel('Profile').selectOption('demo');
    await dialog.getByLabel('Run label').fill('');
    await dialog.getByLabel('Speed').fill('4');
    await dialog.getByRole('button', { name: 'Dry run' }).click();
    const planned = /name (ui_demo_coding-agent_\S+)/.exec((await dialog.getByLabel('Dry run').textContent()) ?? '')?.[1];
    expect(planned).toMatch(/^ui_demo_coding-agent_\d{8}-\d{6}$/);
    // Launched as the dry run showed it: the same name, though the clock moved on.
    await page.waitForTimeout(1100);
    await dialog.getByRole('button', { name: 'Launch', exact: true }).click();
    const heading = page.getByRole('heading', { name: planned });
    await expect(heading).toBeVisible({ timeout: 20_000 });
    await expect(page.locator('.cell-header .badge')).toHaveText('ui run');
    const budget = page.getByRole('meter', { name: 'episodes' });
    await expect.poll(async () => Number(await budget.getAttribute('aria-valuenow')), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect(page.locator('.run-controls')).toContainText('running');
    await expect(page.locator('.cell-header .pill').first()).toHaveText('running');
    // Stop asks first, inline; Cancel leaves the run alone.
    await page.locator('.run-controls').getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('group', { name: 'Confirm stop' }).getByRole('button', { name: 'Cancel' }).click();
    await expect(page.locator('.cell-header .pill').first()).toHaveText('running');
    await page.locator('.run-controls').getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('group', { name: 'Confirm stop' }).getByRole('button', { name: 'Stop run' }).click();
    await expect(page.locator('.run-controls')).toContainText('stopped');
    // What the process says beats fresh files: stopped in the header and the list, and no end projected.
    await expect(page.locator('.cell-header .pill').first()).toHaveText('stopped');
    await expect(page.getByLabel('Budgets')).not.toContainText('ends about');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('table', { name: 'Cells' }).getByRole('row', { name: new RegExp(planned as string) })).toContainText('stopped');
  });

  test('at 1024x700 the Dry run and Launch buttons are in reach for the profile with the most knobs', async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.goto(served.url);
    await page.getByRole('button', { name: 'Launch' }).click();
    const dialog = page.getByRole('dialog', { name: 'Launch a UI run' });
    await dialog.getByLabel('Profile').selectOption('bigym-agent');
    await expect(dialog.getByRole('button', { name: 'Dry run' })).toBeInViewport();
    await expect(dialog.getByRole('button', { name: 'Launch', exact: true })).toBeInViewport();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  test('a run that exits non-zero shows as crashed, with its stderr, in the header and the list', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('button', { name: 'Launch' }).click();
    const dialog = page.getByRole('dialog', { name: 'Launch a UI run' });
    await dialog.getByLabel('Profile').selectOption('custom');
    // {cell} and {name} in the command are the run's own folder and name.
    await dialog.getByLabel('Command').fill(`mkdir -p {cell} && printf '{"runner": "coding-agent", "run": "{name}"}' > {cell}/run.json && echo "loading weights" && echo "step 1" && sleep 1 && echo "CUDA out of memory" >&2 && exit 3`);
    await dialog.getByLabel('Run label').fill('oom');
    await dialog.getByLabel(/launch below 6000 MiB free/).check();
    await dialog.getByRole('button', { name: 'Launch', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'ui_custom_oom' })).toBeVisible({ timeout: 20_000 });
    await expect(page.locator('.cell-header .pill').first()).toHaveText('crashed');
    // The stderr box sits on its own line under the header, inside the window, over nothing.
    const stderr = page.getByRole('region', { name: 'Last lines of stderr' });
    await expect(stderr).toContainText('CUDA out of memory');
    const [box, budgets, viewport] = [await stderr.boundingBox(), await page.getByLabel('Budgets').boundingBox(), page.viewportSize()];
    expect(box && budgets && viewport && box.y + box.height <= budgets.y && box.x + box.width <= viewport.width).toBe(true);
    await page.screenshot({ path: join(ROOT, 'out', 'test-results', 'crashed.png') });
    // The Logs tab: what it printed, each stream, searchable.
    await page.getByRole('tab', { name: 'Logs' }).click();
    await expect(page.getByRole('log', { name: 'Lines of stdout.log' })).toHaveText('loading weights\nstep 1');
    await page.getByLabel('Search stdout.log').fill('step');
    await expect(page.getByRole('log', { name: 'Lines of stdout.log' })).toHaveText('step 1');
    await page.getByRole('group', { name: 'Logs' }).getByRole('button', { name: 'stderr.log' }).click();
    await expect(page.getByRole('log', { name: 'Lines of stderr.log' })).toContainText('CUDA out of memory');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('table', { name: 'Cells' }).getByRole('row', { name: /ui_custom_oom/ })).toContainText('crashed');
    // The Runs view says why it crashed beside its state, and its Resume field fits the window at 1024 px.
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.getByRole('tab', { name: 'Runs' }).click();
    const row = page.getByRole('table', { name: 'Launched runs' }).getByRole('row', { name: /ui_custom_oom/ });
    await expect(row).toContainText('CUDA out of memory');
  });

  test('a drained run prints its resume spec, inline, ends stopped in the header and the list, and resumes those episodes in its cell', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('button', { name: 'Launch' }).click();
    const dialog = page.getByRole('dialog', { name: 'Launch a UI run' });
    await dialog.getByLabel('Profile').selectOption('drainable');
    await dialog.getByLabel('Run label').fill('drain-me');
    await dialog.getByRole('button', { name: 'Launch', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'ui_drainable_drain-me' })).toBeVisible({ timeout: 20_000 });
    await expect(page.locator('.cell-header .pill').first()).toHaveText('running');
    // Its driver log, live: the line count grows while the run writes.
    await page.getByRole('tab', { name: 'Logs' }).click();
    await page.getByRole('group', { name: 'Logs' }).getByRole('button', { name: 'driver.log' }).click();
    const lines = async () => Number(/(\d+) lines/.exec((await page.getByRole('region', { name: 'driver.log' }).textContent()) ?? '')?.[1] ?? 0);
    const before = await lines();
    await expect.poll(lines).toBeGreaterThan(before + 2);
    await page.locator('.run-controls').getByRole('button', { name: 'Drain' }).click();
    const said = page.getByRole('region', { name: 'Runner said' });
    await expect(said).toContainText('resume: stdrun.py run ui_drainable_drain-me --episodes 7,8');
    await expect(said.getByRole('button', { name: 'Copy' })).toBeVisible();
    await expect(page.locator('.cell-header .pill').first()).toHaveText('stopped');

    // Resume: the episodes the drain printed, filled in.
    const resume = page.getByRole('form', { name: 'Resume' });
    await expect(resume.getByLabel('Episodes')).toHaveValue('7,8');
    // Or its units that failed or were left out of the score, once its summary says so: its dry run first, then the run.
    const cellDir = (function find(dir: string): string {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (!entry.isDirectory()) continue;
        if (entry.name === 'ui_drainable_drain-me') return join(dir, entry.name);
        const found = find(join(dir, entry.name));
        if (found) return found;
      }
      return '';
    })(home.home);
    const outcome = (status: string, success: boolean | null) => ({ status, success, engaged: true });
    writeFileSync(join(cellDir, 'summary.json'), JSON.stringify({ run: 'ui_drainable_drain-me', finished: false, planned: [0, 1, 2, 3, 4, 5, 6, 7, 8], episodes: { 0: outcome('evaluated', true), 3: outcome('infra_error', null), 5: outcome('rate_limited', null), 6: outcome('evaluated', false) } }));
    await resume.getByRole('button', { name: 'Failed units (2)' }).click();
    await expect(resume.getByLabel('Episodes')).toHaveValue('3,5');
    await resume.getByRole('button', { name: 'Dry run' }).click();
    await expect(resume.getByLabel('Resume dry run')).toContainText('episodes=[3,5]');
    await resume.getByRole('button', { name: 'Resume' }).click();
    await expect(page.locator('.cell-header .pill').first()).toHaveText('running');
    await expect(page.getByRole('heading', { name: 'ui_drainable_drain-me' })).toBeVisible();
    await page.getByRole('tab', { name: 'Logs' }).click();
    await page.getByRole('group', { name: 'Logs' }).getByRole('button', { name: 'stdout.log' }).click();
    await expect(page.getByRole('log', { name: 'Lines of stdout.log' })).toContainText('episodes=[3,5]');
    await page.locator('.run-controls').getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('group', { name: 'Confirm stop' }).getByRole('button', { name: 'Stop run' }).click();
    await expect(page.locator('.cell-header .pill').first()).toHaveText('stopped');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('table', { name: 'Cells' }).getByRole('row', { name: /ui_drainable_drain-me/ })).toContainText('stopped');
  });

  test('a NeMo Gym collection cut short resumes from its cache: no list to give, the flag in its dry run, the rows it lacked', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('button', { name: 'Launch' }).click();
    const dialog = page.getByRole('dialog', { name: 'Launch a UI run' });
    await dialog.getByLabel('Profile').selectOption('nemo-gym');
    await dialog.getByLabel('NeMo Gym checkout').fill(home.home);
    await dialog.getByLabel('Runs root').fill(join(home.home, 'nemo-runs'));
    await dialog.getByLabel('Run label').fill('cut');
    await dialog.getByRole('button', { name: 'Launch', exact: true }).click();
    const header = page.locator('.cell-header');
    // Cut short at 3 of its 5 rollouts: 3 scored, 2 lacking.
    await expect(header).toContainText(/mean reward [\d.]+ of 3/, { timeout: 20_000 });
    const resume = page.getByRole('form', { name: 'Resume' });
    await expect(resume).toContainText('Runs again the 2 planned units the cell lacks');
    await expect(resume.getByLabel('Episodes')).toHaveCount(0);
    await resume.getByRole('button', { name: 'Dry run' }).click();
    await expect(resume.getByLabel('Resume dry run')).toContainText('+resume_from_cache=true');
    await resume.getByRole('button', { name: 'Resume' }).click();
    await expect(header).toContainText(/mean reward [\d.]+ of 5/, { timeout: 20_000 });
    await expect(resume).toContainText('The cell lacks none of its planned units');
  });
});
