import { expect, test } from '@playwright/test';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { episodePanelsFit } from './panels';
import { instantDemoForSpecs, ROOT } from './processes';

const FIXTURES = join(ROOT, 'runners', 'harbor-job', 'fixtures');

/** A Harbor job around real trial results (runners/harbor-job/fixtures), one of them with a real ATIF trajectory and a trial.log. */
function writeJob(runs: string): void {
  const job = join(runs, 'harbor-example');
  const write = (path: string, text: string) => (mkdirSync(dirname(join(job, path)), { recursive: true }), writeFileSync(join(job, path), text));
  write('config.json', JSON.stringify({ job_name: 'harbor-example', n_attempts: 1 }));
  write('result.json', JSON.stringify({ n_total_trials: 3, stats: {}, finished_at: '2026-02-26T07:30:00Z' }));
  for (const file of readdirSync(join(FIXTURES, 'real-trial-results')).filter((f) => f.startsWith('example_output'))) {
    const text = readFileSync(join(FIXTURES, 'real-trial-results', file), 'utf8');
    const result = JSON.parse(text) as { trial_name: string; config: object };
    write(`${result.trial_name}/config.json`, JSON.stringify(result.config));
    write(`${result.trial_name}/result.json`, text);
  }
  const trial = 'scientific_computing_task_0003__xtc3iGm';
  write(`${trial}/trial.log`, 'starting trial\nagent finished\nverifier: 0 of 4 tests passed\n');
  write(`${trial}/agent/trajectory.json`, readFileSync(join(FIXTURES, 'atif', 'trajectory_pass.json'), 'utf8'));
}

test.describe('a Harbor job', () => {
  const served = instantDemoForSpecs((home) => writeJob(join(home.home, 'runs')));

  test("a trial says what its result says, its trial.log reads, and it opens as a transcript of its ATIF trajectory", async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.goto(served.url);
    await page.getByRole('table', { name: 'Cells' }).getByRole('button', { name: 'harbor-example' }).click();
    await page.getByRole('tab', { name: 'Episodes' }).click();
    // At 1024 px the ids are cut, each still apart from the others; at 1440 every id shows whole (the note gives way first).
    const ids = () => page.locator('.episode-table [role="row"][aria-label] [role="cell"]:first-child').allInnerTexts();
    await expect.poll(async () => new Set(await ids()).size).toBe(3);
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect.poll(ids).toEqual(['scientific_computing_task_0001__aVPgHuC', 'scientific_computing_task_0002__u55N22c', 'scientific_computing_task_0003__xtc3iGm']);
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.locator('.episode-table').getByRole('row', { name: /scientific_computing_task_0003/ }).click();
    const trial = page.getByRole('region', { name: 'Episode scientific_computing_task_0003__xtc3iGm' });
    await episodePanelsFit(page, 'a Harbor trial at 1024x700');
    await expect(trial.locator('dl')).toContainText('agentterminus-2-nemo-gym 2.0.0');
    await expect(trial.locator('dl')).toContainText('input tokens344,857');
    await expect(trial.locator('dl')).toContainText('outcomefailed');
    await trial.getByRole('button', { name: 'scientific_computing_task_0003__xtc3iGm/trial.log' }).click();
    await expect(trial.getByLabel(/^Lines of .*trial\.log$/)).toContainText('verifier: 0 of 4 tests passed');
    await trial.getByRole('button', { name: 'test-stdout.txt' }).click();
    await expect(trial).toContainText('verifier/test-stdout.txt is not there (not written, or not yet)');
    await trial.getByRole('button', { name: 'Open the transcript of scientific_computing_task_0003__xtc3iGm' }).click();
    await expect(page.getByText('claude-code 2.1.178 claude-opus-4-6')).toBeVisible();
    await expect(page.getByText('assistant (step 2 · 34547 in, 220 out) +6.7 s')).toBeVisible();
    // Its steps on one time axis: each model answer a bar from the step before it, the tool calls at their steps.
    const timeline = page.getByRole('figure', { name: 'Timeline' });
    await expect(timeline.getByRole('group', { name: 'Timeline model' }).getByRole('button').first()).toBeVisible();
    await expect(timeline.getByRole('group', { name: 'Timeline tools' }).getByRole('button').first()).toBeVisible();
    await page.screenshot({ path: join(ROOT, 'out', 'test-results', 'harbor-trial.png') });
  });
});
