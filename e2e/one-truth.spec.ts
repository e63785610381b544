import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyDemo } from '../runners/demo/copy';
import { CLI, scratchHome, startServing, writeInstantDemo, type Served } from './processes';

// One truth: what the list, the header, the board square, the Tables tab and the paired view show of each
// cell is what `status --json`, `board --json` and `mcnemar --json` say of it, for the demo beside the red
// team's traps: a copy of one of its runs (a backup in the root: both claim one board crossing, so neither
// is on the board), a bigym evaluation listing each seed twice (a success, then a failure), and NeMo Gym
// rows with an LLM judge's usage after their reward (the response's usage is the rollout's).
const COPIED = 'std_sdk_demo-model_full_default';

interface Row {
  path: string;
  name: string;
  board: string | null;
  board_reasons: string[];
  episodes: { ended: number; planned: number | null; scored: number; successes: number };
  success_rate: number | null;
  format: string;
  tokens: { input: number | null };
}

/** A copy of the demo's bigym run whose v004 evaluation lists each seed twice: first as it was, then the other outcome. */
function repeatSeeds(runs: string) {
  const copy = join(runs, 'cartpole_repeats');
  copyDemo(join(runs, 'cartpole_balance'), copy);
  const file = join(copy, 'eval', 'v004', 'summary.json');
  const summary = JSON.parse(readFileSync(file, 'utf8')) as { episodes: { seed: number; success: boolean }[] };
  summary.episodes = [...summary.episodes, ...summary.episodes.map((e) => ({ ...e, success: !e.success }))];
  writeFileSync(file, JSON.stringify(summary));
}

/** A copy of the demo's collection whose every row has a judge's usage right after its reward. */
function judgeRows(runs: string) {
  const copy = join(runs, 'nemo_judged');
  copyDemo(join(runs, 'nemo_math'), copy);
  const file = join(copy, 'rollouts.jsonl');
  const rows = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  const judged = rows.map((row) => Object.fromEntries(Object.entries(row).flatMap(([k, v]) => (k === 'reward' ? [[k, v], ['judge', { usage: { input_tokens: 5000, output_tokens: 70, input_tokens_details: { cached_tokens: 0 } } }]] : [[k, v]]))));
  writeFileSync(file, `${judged.map((row) => JSON.stringify(row)).join('\n')}\n`);
}

const percent = (value: number | null) => (value === null ? '–' : `${(value * 100).toFixed(1)}%`);

test.describe('one truth', () => {
  const home = scratchHome();
  const runs = join(home.home, 'runs');
  let served: Served;
  const cli = (args: string[]) => JSON.parse(execFileSync(process.execPath, [CLI, ...args], { env: { ...process.env, ...home.env } }).toString());
  test.beforeAll(async () => {
    writeInstantDemo(runs, home);
    copyDemo(join(runs, COPIED), join(runs, 'backup', COPIED));
    repeatSeeds(runs);
    judgeRows(runs);
    served = await startServing(process.execPath, [CLI, 'serve', '--port', '0', runs], home.env);
  });
  test.afterAll(async () => {
    await served?.stop();
    home.remove();
  });

  /** The text of each column of the list's row of the cell at `path`, by the column's title. */
  async function listed(page: Page, path: string): Promise<Record<string, string>> {
    const table = page.getByRole('table', { name: 'Cells' });
    const titles = await table.getByRole('row').first().getByRole('columnheader').allInnerTexts();
    const cells = await table.getByRole('row').filter({ has: page.locator(`[title="${path}"]`) }).getByRole('cell').allInnerTexts();
    return Object.fromEntries(titles.map((title, i) => [title.replace(/[▲▼\s]+$/u, '').trim(), (cells[i] ?? '').trim()]));
  }

  for (const [width, height] of [[1024, 700], [1440, 900]] as const) {
    test(`list, header, board and paired view say what status, board and mcnemar say, at ${width}x${height}`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      const rows = cli(['status', '--json', runs]).cells as Row[];
      await page.goto(served.url);
      const table = page.getByRole('table', { name: 'Cells' });
      await expect(table).toHaveAttribute('aria-rowcount', String(rows.length + 1));

      for (const row of rows) {
        const shown = await listed(page, row.path);
        expect(shown.Success, row.path).toBe(percent(row.success_rate));
        expect(shown.Episodes, row.path).toMatch(new RegExp(`${row.episodes.ended}/${row.episodes.planned ?? '\\?'}$`));
        if (row.board !== null) expect(shown.Board, row.path).toBe(row.board);
      }

      // The list copied (TSV) and saved (CSV) holds every row with status's own figures.
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: served.origin });
      const exportCells = page.getByRole('group', { name: 'Export cells' });
      await exportCells.getByRole('button', { name: 'Copy' }).click();
      await expect(exportCells.getByRole('status')).toHaveText('TSV copied');
      const tsv = (await page.evaluate(() => navigator.clipboard.readText())).split('\n').map((line) => line.split('\t'));
      const column = (name: string) => (tsv[0] as string[]).indexOf(name);
      expect(tsv).toHaveLength(rows.length + 1);
      for (const row of rows) {
        const copied = tsv.find((r) => r[column('path')] === row.path) as string[];
        expect([copied[column('ended')], copied[column('planned')], copied[column('scored')], copied[column('successes')]], row.path).toEqual([row.episodes.ended, row.episodes.planned ?? '', row.episodes.scored, row.episodes.successes].map(String));
      }
      const saved = page.waitForEvent('download');
      await exportCells.getByRole('button', { name: 'CSV' }).click();
      const csv = readFileSync(await (await saved).path(), 'utf8');
      expect(csv.trim().split('\r\n')).toHaveLength(rows.length + 1);

      // The copy and its original: both off the board, each naming the other, in the CLI and in the square.
      const copies = rows.filter((r) => r.name === COPIED);
      expect(copies.map((r) => r.board)).toEqual(['off', 'off']);
      for (const r of copies) expect(r.board_reasons.join(' ')).toContain((copies.find((o) => o !== r) as Row).path);

      // The repeated seeds: no outcome of v004 counted, a problem, off the board, in the CLI and in the list.
      const repeated = rows.find((r) => r.path.endsWith('cartpole_repeats')) as Row & { problems: { message: string }[] };
      expect(repeated.problems.map((p) => p.message).join(' ')).toContain('given more than once');
      expect(repeated.board).toBe('off');

      // Each scored cell's header says its successes of scored and its input tokens, as status does; a
      // collection's Tables count its agents' scored rollouts and successes as status does.
      const whole = (n: number) => n.toLocaleString('en-US');
      for (const row of rows.filter((r) => r.success_rate !== null && r.name !== COPIED)) {
        await table.getByRole('row').filter({ has: page.locator(`[title="${row.path}"]`) }).click();
        await expect(page.locator('.cell-header')).toContainText(`${row.episodes.successes}/${row.episodes.scored} · ${percent(row.success_rate)}`);
        if (row.tokens.input !== null) await expect(page.locator('.tokens-line')).toContainText(`${whole(row.tokens.input)} in`);
        if (row.format === 'nemo-gym') {
          await page.getByRole('tab', { name: 'Tables' }).click();
          const agents = page.getByRole('region', { name: 'Agents', exact: true });
          await expect(agents.getByRole('row')).not.toHaveCount(1);
          const column = async (n: number) => (await agents.getByRole('row').locator(`td:nth-child(${n})`).allInnerTexts()).reduce((sum, text) => sum + Number(text.replace(/,/gu, '')), 0);
          expect([await column(2), await column(3)], row.path).toEqual([row.episodes.scored, row.episodes.successes]);
          await expect(page.getByRole('region', { name: 'Rollouts', exact: true }).getByRole('heading')).toContainText(`of ${row.episodes.planned} planned`);
        }
        await page.keyboard.press('Escape');
      }

      // The board: each square that is on it reads as board --json counts it; the comparisons are the same pairs.
      const board = cli(['board', '--json', runs]) as { cells: (Row & { scored: number; successes: number })[]; comparisons: { a: string; b: string; p_adjusted: number }[] };
      await page.getByRole('tab', { name: 'Board' }).click();
      const grid = page.getByRole('table', { name: 'Board coding-agent std-v2' });
      for (const cell of board.cells.filter((c) => c.board === 'on' && c.path.includes('std_'))) {
        await expect(grid.getByRole('button', { name: new RegExp(`^${cell.name}:`) })).toContainText(`${cell.successes}/${cell.scored}`);
      }
      await expect(grid.getByRole('button', { name: new RegExp(`^${COPIED}:`) })).toHaveCount(2);
      // The board as Markdown, for a note: a header, its rule, each on-board cell with what its square says.
      const exportBoard = page.getByRole('group', { name: 'Export board coding-agent std-v2' });
      await exportBoard.getByRole('button', { name: 'Markdown' }).click();
      await expect(exportBoard.getByRole('status')).toHaveText('Markdown copied');
      const markdown = await page.evaluate(() => navigator.clipboard.readText());
      expect(markdown.split('\n')[1]).toMatch(/^\|( --- \|)+$/);
      for (const cell of board.cells.filter((c) => c.board === 'on' && c.path.includes('std_'))) expect(markdown).toContain(`${cell.name}: ${cell.successes}/${cell.scored}`);
      await expect(page.getByRole('table', { name: 'Comparisons' }).getByRole('row')).toHaveCount(1 + board.comparisons.filter((c) => c.a.includes('std_') && c.b.includes('std_')).length);

      // The paired view of the two bare cells: the counts and p that mcnemar gives.
      const [a, b] = ['std_cli_demo-model_bare_default', 'std_sdk_demo-model_bare_default'].map((name) => join(runs, name));
      const paired = cli(['mcnemar', '--json', a as string, b as string]) as { only_a: number; only_b: number; pairs: number };
      const id = (path: string) => encodeURIComponent(`local:${path}`);
      await page.goto(`${served.url}#/paired?a=${id(a as string)}&b=${id(b as string)}`);
      await expect(page.locator('.figures')).toContainText(`pairs${paired.pairs}`);
      await expect(page.getByLabel('Verdict')).toContainText(`B wins ${paired.only_b} episode${paired.only_b === 1 ? '' : 's'} that A fails and loses ${paired.only_a}`);
    });
  }
});
