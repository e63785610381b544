import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { instantDemoForSpecs } from './processes';

/** A rollout's response usage, as the Responses API writes it. */
interface Usage {
  input_tokens: number;
  output_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens_details: { reasoning_tokens: number };
}

test.describe("the demo's NeMo Gym collection", () => {
  const served = instantDemoForSpecs();

  test('a collection of two agents: its budget, rate and mean reward, and its tables of agents, tasks, rollouts, failures and aggregate', async ({ page }) => {
    await page.goto(served.url);
    // Above the list, what is happening now: the instant demo has ended, its bigym session interrupted.
    const now = page.getByRole('status', { name: 'Now' });
    await expect(now).toContainText('0 running');
    await expect(now).toContainText('1 crashed or interrupted');
    await expect(now).toContainText('9 ended');
    await expect(now).toContainText(/est\. \$\d+\.\d\d in all/);
    await expect(now).toContainText('spend per hour: watching…');
    const table = page.getByRole('table', { name: 'Cells' });
    const row = table.getByRole('row', { name: /^rollouts/ });
    await expect(row).toContainText('nemo-gym');
    await expect(row).toContainText('48/48');
    // Its name's title is the rollouts file's path.
    const path = (await row.locator('.name').getAttribute('title')) as string;
    await row.getByRole('cell').first().click();
    await expect(page.getByRole('heading', { name: 'rollouts' })).toBeVisible();
    await expect(page.getByText(/^mean reward 0\.\d+ of 47$/)).toBeVisible();
    await expect(page.locator('.cell-header')).toContainText('demo_claude_code_agent, demo_codex_agent');

    await page.getByRole('tab', { name: 'Tables' }).click();
    const agents = page.getByRole('region', { name: 'Agents' });
    await expect(agents.getByRole('row')).toHaveCount(3);
    await expect(agents.getByRole('columnheader')).toHaveText(['agent', 'scored', 'successes', 'success rate', 'mean reward']);
    const tasks = page.getByRole('region', { name: 'Tasks' });
    await expect(tasks.getByRole('row')).toHaveCount(13);
    await expect(tasks.getByRole('row').nth(1).getByRole('cell').nth(2)).toHaveText('4');
    const failures = page.getByRole('region', { name: 'Failures' });
    await expect(failures.getByRole('row', { name: /sandbox_timeout/ }).getByRole('cell')).toHaveText(['sandbox_timeout', '1', '1', '1']);
    // The collector's aggregate agrees with the rows: no problem says otherwise.
    const aggregate = page.getByRole('region', { name: 'Aggregate (rollouts_aggregate_metrics.json)' });
    await expect(aggregate.getByRole('row')).toHaveCount(7);
    await expect(page.getByRole('tab', { name: 'Problems (0)' })).toBeVisible();

    // The header's tokens are whole counts: the sums of the rollouts file's usage, read here line by line.
    const usage = readFileSync(path, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { response: { usage: Usage } }).response.usage);
    const sum = (of: (u: Usage) => number) => usage.reduce((total, u) => total + of(u), 0).toLocaleString('en-US');
    await expect(page.locator('.tokens-line')).toHaveText(
      `${sum((u) => u.input_tokens)} in (${sum((u) => u.input_tokens_details.cached_tokens)} cached) · ${sum((u) => u.output_tokens)} out (${sum((u) => u.output_tokens_details.reasoning_tokens)} reasoning)`,
    );
    const rollouts = page.getByRole('region', { name: 'Rollouts' });

    // A rollout opens as its transcript: the question, the tool call with its output, the reward.
    await rollouts.getByRole('button', { name: /^Open rollout demo_claude_code_agent\/0#/ }).first().click();
    const transcript = page.getByRole('region', { name: /^Transcript of demo_claude_code_agent\/0#/ });
    await expect(transcript).toContainText('What is 17 * 3? Answer with the number only.');
    await expect(transcript.locator('.turn-call')).toContainText('"code": "print(17 * 3)"');
    await expect(transcript.getByLabel('Verdict')).toContainText(/reward [01]/);
    // What the harness observed, as turns: its invocation, each call on one time axis, tokens it did not report said
    // unknown, the sandbox's exit code and peak memory, and what it could not observe.
    const observed = transcript.getByRole('region', { name: 'Observed by the harness' });
    const invocation = observed.getByRole('group', { name: /^Invocation session-0-/ });
    await expect(invocation.locator('.observed-step')).toHaveCount(3);
    await expect(invocation.locator('.observed-step').nth(0)).toContainText(/^\+0\.0 smodel call demo\/agent-model · 1\.4 s · first token 350 ms · finish: tool_use · completed 200/);
    await expect(invocation.locator('.observed-step').nth(0)).toContainText('reasoning unknown');
    await expect(invocation.locator('.observed-step').nth(1)).toContainText(/^\+1\.5 stool python · completed · 550 ms \(artifact timing\)/);
    await expect(invocation.locator('.observed-step').nth(2)).toContainText(/^\+2\.1 smodel call .* finish: end_turn/);
    await expect(observed.getByRole('table', { name: 'Sandboxes' }).getByRole('row').nth(1)).toContainText(/agent · demo · sbx-0-\d+completed03\.4 s0\.8 s96 MiB/);
    await expect(observed.getByRole('list', { name: 'Not observed' })).toHaveText("Not observed: a model response's id (model_response_id_missing · " + (await invocation.locator('code').textContent()) + ' · the tool result message)');
    await transcript.getByRole('button', { name: 'Close' }).click();
    await expect(transcript).toHaveCount(0);

    // Its columns as the user sets them, kept across a reload: one hidden, one widened from the keyboard.
    const headers = rollouts.getByRole('columnheader');
    const count = await headers.count();
    await rollouts.getByLabel('Columns of Rollouts').click();
    await rollouts.getByRole('checkbox', { name: 'cached' }).uncheck();
    await expect(headers).toHaveCount(count - 1);
    await expect(headers.filter({ hasText: /^cached$/ })).toHaveCount(0);
    const agent = headers.filter({ hasText: /^agent$/ }).first();
    const before = ((await agent.boundingBox()) as { width: number }).width;
    await rollouts.getByRole('separator', { name: 'Resize agent' }).first().focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    await expect.poll(async () => ((await agent.boundingBox()) as { width: number }).width).toBeGreaterThan(before + 40);
    const widened = ((await agent.boundingBox()) as { width: number }).width;
    await page.reload();
    await expect(headers).toHaveCount(count - 1);
    expect(Math.round(((await agent.boundingBox()) as { width: number }).width)).toBe(Math.round(widened));
    await expect(rollouts.getByLabel('Columns of Rollouts')).toHaveText('Columns (1 hidden)');
  });

  test('its Episodes tab: a rollout picked opens as its transcript; the log beside names each rollout, and one opens whole', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('table', { name: 'Cells' }).getByRole('row', { name: /^rollouts/ }).getByRole('cell').first().click();
    await page.getByRole('tab', { name: 'Episodes' }).click();
    await page.locator('.episode-table').getByRole('row', { name: /demo_codex_agent\/2#1/ }).click();
    const picked = page.getByRole('region', { name: 'Episode demo_codex_agent/2#1' });
    await picked.getByRole('button', { name: 'Open the transcript of demo_codex_agent/2#1' }).click();
    // The transcript has the view to itself, at a link of its own: a reload keeps it.
    const transcript = page.getByRole('region', { name: 'Transcript of demo_codex_agent/2#1' });
    await expect(transcript).toContainText('What is 31 * 13? Answer with the number only.');
    await expect(page.getByRole('tab', { name: 'Transcript' })).toHaveAttribute('aria-selected', 'true');
    await page.reload();
    await expect(transcript).toContainText('What is 31 * 13? Answer with the number only.');
    // j and k move between its turns; / searches it, and n goes from match to match.
    await page.keyboard.press('j');
    await expect(transcript.locator('[aria-current="true"]')).toHaveAttribute('data-turn', '0');
    await page.keyboard.press('j');
    await expect(transcript.locator('[aria-current="true"]')).toHaveAttribute('data-turn', '1');
    await page.keyboard.press('/');
    await page.keyboard.type('31 * 13');
    await page.keyboard.press('Enter');
    const matches = transcript.getByRole('status', { name: 'Matches' });
    await expect(matches).toHaveText('2 of 2 turns');
    await expect(transcript.locator('[aria-current="true"]')).toContainText('31 * 13');
    await page.keyboard.press('Escape');
    await page.keyboard.press('n');
    await expect(matches).toHaveText('1 of 2 turns');
    await expect(transcript.locator('[aria-current="true"]')).toContainText('31 * 13');
    await page.getByRole('tab', { name: 'Episodes' }).click();

    // The log beside holds every rollout: each row says which, and a search finds one by its unit. It
    // holds no messages or calls, so it offers no transcript of its own.
    const events = page.getByRole('log', { name: 'Events' });
    await expect(page.getByRole('region', { name: 'Event stream' }).getByRole('button', { name: 'Transcript' })).toHaveCount(0);
    await page.getByRole('searchbox', { name: 'Search events' }).fill('2#1 ');
    await expect(events.getByRole('button')).toHaveCount(2);
    await expect(events.getByRole('button').first()).toHaveText(/^rollout2#1 {2}reward=[01] {2}agent=demo_c/);
    await events.getByRole('button', { name: /agent=demo_codex_agent/ }).click();
    await expect(page.getByRole('region', { name: 'Event rollout' })).toContainText('rollout of 2#1 · seq – ·');
  });
});
