import { expect, test } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyDemo } from '../runners/demo/copy';
import { CLI, instantDemoForSpecs, scratchHome, startProcess, startServing, stopProcess, type Served } from './processes';

const BARE = 'std_sdk_demo-model_bare_default';
const FULL = 'std_sdk_demo-model_full_default';

test.describe('the board', () => {
  const served = instantDemoForSpecs();

  test('squares where the benchmark puts them, the real difference marked, a click to the Paired view', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('tab', { name: 'Board' }).click();
    const grid = page.getByRole('table', { name: 'Board coding-agent std-v2' });
    await expect(grid.getByRole('columnheader')).toHaveText(['harness · condition · effort', 'demo-model']);
    await expect(grid.getByRole('rowheader')).toHaveText(['cli · bare · default', 'cli · full · default', 'sdk · bare · default', 'sdk · full · default']);
    // The demo is deterministic, a 2x2 board over 100 episodes: sdk bare 44 of 98 scored, sdk full 87 of 99;
    // full wins 42 discordant episodes to 0, and sdk beats cli in both conditions.
    const full = grid.getByRole('button', { name: new RegExp(`^${FULL}`) });
    await expect(full).toContainText('87/99');
    await expect(full.getByLabel('2 real differences won')).toBeVisible();
    await expect(grid.getByRole('button', { name: new RegExp(`^${BARE}`) }).getByLabel('1 real difference won')).toBeVisible();
    await expect(grid.getByRole('button', { name: /^std_cli_demo-model_bare_default/ }).locator('.board-win')).toHaveCount(0);
    // A heat map by rate: each square tinted as its success rate, the better the greener.
    const tint = (name: RegExp) => grid.getByRole('button', { name }).evaluate((el) => ({ rate: getComputedStyle(el).getPropertyValue('--rate'), background: getComputedStyle(el).backgroundColor }));
    const [best, worst] = [await tint(new RegExp(`^${FULL}`)), await tint(/^std_cli_demo-model_bare_default/)];
    expect([best.rate, worst.rate]).toEqual(['88%', '13%']);
    expect(best.background).not.toBe(worst.background);

    const comparisons = page.getByRole('table', { name: 'Comparisons' });
    await expect(comparisons.getByRole('row')).toHaveCount(5);
    // Holm over every comparison of every board: this board's four, the demo's two Inspect logs' one and its NeMo Gym agents' one.
    await expect(comparisons.getByRole('row').filter({ hasText: BARE }).filter({ hasText: FULL }).getByRole('cell')).toHaveText(['condition', BARE, FULL, '0', '42', '4.5e-13', '2.3e-12 ▲', 'decided']);
    // Its cells say no tokens, so no cost: the frontier says why it has nothing to draw.
    await expect(page.getByText('Cost frontier: no cell on this board has an est. cost')).toBeVisible();

    // Arrows move between squares, Enter opens the cell.
    await grid.getByRole('button', { name: new RegExp(`^${BARE}`) }).focus();
    await page.keyboard.press('ArrowDown');
    await expect(full).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: FULL })).toBeVisible();
    await expect(page.getByText('87/99 · 87.9% · 95% CI 80.0–92.9%')).toBeVisible();
    await page.keyboard.press('Escape');

    await page.getByRole('tab', { name: 'Board' }).click();
    await page.getByRole('table', { name: 'Comparisons' }).getByRole('button', { name: `Paired view of ${BARE} and ${FULL}` }).click();
    await expect(page.getByRole('tab', { name: 'Paired test' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByLabel('Verdict')).toHaveText(/^B wins 42 episodes that A fails and loses 0; p = 4\.5e-13/);
  });

  test('columns by another field, and the board, the field and the switch in the link', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('tab', { name: 'Board' }).click();
    await page.getByLabel('Columns').selectOption('harness');
    const grid = page.getByRole('table', { name: 'Board coding-agent std-v2' });
    await expect(grid.getByRole('columnheader')).toHaveText(['model · condition · effort', 'cli', 'sdk']);
    await expect(grid.getByRole('rowheader')).toHaveText(['demo-model · bare · default', 'demo-model · full · default']);
    await expect(grid.getByRole('row').nth(2).getByRole('button', { name: new RegExp(`^${FULL}`) })).toContainText('87/99');
    await page.getByLabel('every cell, not only those on the board').check();
    await expect(page).toHaveURL(/#\/board\?across=harness&all=1$/);
    await page.reload();
    await expect(page.getByLabel('Columns')).toHaveValue('harness');
    await expect(page.getByLabel('every cell, not only those on the board')).toBeChecked();
    await page.getByRole('combobox', { name: 'Board' }).selectOption({ label: 'bigym-agent cartpole_balance' });
    await expect(page).toHaveURL(/#\/board\?name=bigym-agent\+cartpole_balance&across=harness&all=1$/);
  });

  test("a NeMo Gym collection of two agents: a square each, compared as the Paired test pairs them", async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('tab', { name: 'Board' }).click();
    await page.getByRole('combobox', { name: 'Board' }).selectOption({ label: 'nemo-gym nemo_math' });
    const grid = page.getByRole('table', { name: 'Board nemo-gym nemo_math' });
    await expect(grid.getByRole('rowheader')).toHaveText(['demo_claude_code_agent · ? · ?', 'demo_codex_agent · ? · ?']);
    // The demo is deterministic: Claude Code 20 of 24, Codex 12 of its 23 scored (a sandbox timeout left out).
    await expect(grid.getByRole('button', { name: /^rollouts@demo_claude_code_agent: / })).toContainText('20/24');
    await expect(grid.getByRole('button', { name: /^rollouts@demo_codex_agent: / })).toContainText('12/23');
    const claude = 'rollouts@demo_claude_code_agent';
    const codex = 'rollouts@demo_codex_agent';
    await expect(page.getByRole('table', { name: 'Comparisons' }).getByRole('row').nth(1).getByRole('cell')).toHaveText(['harness', claude, codex, '10', '3', '0.092', '0.18', /.*/]);
    await page.getByRole('table', { name: 'Comparisons' }).getByRole('button', { name: `Paired view of ${claude} and ${codex}` }).click();
    await expect(page.getByLabel('Verdict')).toHaveText('B wins 3 rollouts that A fails and loses 10; p = 0.092: no evidence of a difference at the 5% level.');
    // A square opens its collection.
    await page.getByRole('tab', { name: 'Board' }).click();
    await page.getByRole('table', { name: 'Board nemo-gym nemo_math' }).getByRole('button', { name: /^rollouts@demo_codex_agent: / }).click();
    await expect(page.getByRole('heading', { name: 'rollouts' })).toBeVisible();
  });

  test('the bigym board holds no official evaluation: every cell shows the demo cell and why it is off', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('tab', { name: 'Board' }).click();
    await page.getByRole('combobox', { name: 'Board' }).selectOption({ label: 'bigym-agent cartpole_balance' });
    await expect(page.getByText(/No cell is on this board yet/)).toBeVisible();
    await page.getByLabel('every cell, not only those on the board').check();
    const square = page.getByRole('table', { name: 'Board bigym-agent cartpole_balance' }).getByRole('button');
    await expect(square).toHaveCount(1);
    await expect(square).toContainText('off');
    await expect(square).toHaveAttribute('title', /evaluation episodes; the board's is 100/);
  });
});

test.describe('the board, a crossing claimed by many cells', () => {
  let runs = '';
  const served = instantDemoForSpecs((home) => (runs = join(home.home, 'runs')));

  test('its first squares side by side, the rest counted on a button that shows them', async ({ page }) => {
    // Seven copies of a cell, each its own run: eight cells claim its crossing, none of them on the board.
    for (let i = 1; i <= 7; i++) {
      const copy = join(runs, `${FULL}_${i}`);
      copyDemo(join(runs, FULL), copy);
      const run = JSON.parse(readFileSync(join(copy, 'run.json'), 'utf8'));
      writeFileSync(join(copy, 'run.json'), JSON.stringify({ ...run, run: `${FULL}_${i}` }));
    }
    await page.goto(`${served.url}#/board`);
    const crossing = page.getByRole('table', { name: 'Board coding-agent std-v2' }).getByRole('row', { name: /^sdk · full · default/ });
    const squares = crossing.getByRole('button', { name: new RegExp(`^${FULL}`) });
    await expect(squares).toHaveCount(5);
    await expect(squares.first()).toContainText('claimed twice');
    await crossing.getByRole('button', { name: '3 more' }).click();
    await expect(squares).toHaveCount(8);
    await expect(crossing.getByRole('button', { name: /more$/ })).toHaveCount(0);
  });

  test('a label of thousands of characters ends in an ellipsis, whole on hover, and the squares stay in view', async ({ page }) => {
    // A collection whose rows name one agent with 5,000 characters.
    const row = (task: number, agent: string) => JSON.stringify({ responses_create_params: { input: [] }, response: { output: [] }, reward: task % 2, _ng_task_index: task, _ng_rollout_index: 0, agent_ref: { name: agent } });
    mkdirSync(join(runs, 'long_names'));
    writeFileSync(join(runs, 'long_names', 'rollouts.jsonl'), `${[row(0, 'a'.repeat(5000)), row(1, 'a'.repeat(5000)), row(0, 'short'), row(1, 'short')].join('\n')}\n`);
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.goto(`${served.url}#/board`);
    await page.getByRole('combobox', { name: 'Board' }).selectOption({ label: 'nemo-gym long_names' });
    const grid = page.getByRole('table', { name: 'Board nemo-gym long_names' });
    await expect(grid.getByRole('rowheader').first().locator('.board-label')).toHaveAttribute('title', /^a+… 4,8\d\d characters not shown …a+ #[0-9a-f]{12} · \? · \?$/);
    const squares = grid.getByRole('button', { name: /^rollouts@/ });
    await expect(squares).toHaveCount(2);
    for (const square of await squares.all()) {
      const box = await square.boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(1024);
    }
  });
});

test.describe('the board, live', () => {
  const home = scratchHome();
  let demo: ChildProcess;
  let served: Served;
  test.beforeAll(async () => {
    const runs = join(home.home, 'runs');
    demo = startProcess(process.execPath, [CLI, 'demo', runs, '--speed', '3']);
    await new Promise((r) => setTimeout(r, 1500));
    served = await startServing(process.execPath, [CLI, 'serve', '--port', '0', runs], home.env);
  });
  test.afterAll(async () => {
    await stopProcess(demo, 'the demo');
    await served?.stop();
    home.remove();
  });

  test("a running cell's square moves as its episodes end", async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('tab', { name: 'Board' }).click();
    const square = page.getByRole('table', { name: 'Board coding-agent std-v2' }).getByRole('button', { name: new RegExp(`^${BARE}`) });
    const scored = async () => Number(/(\d+) of 100/.exec((await square.textContent()) ?? '')?.[1] ?? -1);
    await expect.poll(scored, { timeout: 20_000 }).toBeGreaterThanOrEqual(0);
    const before = await scored();
    await expect.poll(scored, { timeout: 40_000 }).toBeGreaterThan(before);
  });
});
