import { expect, test, type WebSocketRoute } from '@playwright/test';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonl, writeTree } from '../runners/testing';
import { CLI, scratchHome, startServing, type Served } from './processes';

const CELL = 'std_sdk_m_bare_default';
const message = (seq: number, text: string) => ({ seq, t: 1764403200 + seq, ev: 'agent_message', text });

test.describe('the window after its connection drops', () => {
  const home = scratchHome();
  const runs = join(home.home, 'runs');
  const trajectory = (episode: string) => join(runs, CELL, 'episodes', episode, 'trajectory.jsonl');
  let served: Served;

  test.beforeAll(async () => {
    writeTree(join(runs, CELL), {
      'run.json': { runner: 'coding-agent', run: CELL, protocol: { episodes: [0, 1], max_turns: 200 } },
      'summary.json': { run: CELL, planned: [0, 1], episodes: {}, aggregate: {} },
      'episodes/0000/trajectory.jsonl': jsonl([{ seq: 0, t: 1764403200, ev: 'episode_start', episode: 0 }, message(1, 'before the drop')]),
      'episodes/0001/trajectory.jsonl': jsonl([{ seq: 0, t: 1764403200, ev: 'episode_start', episode: 1 }, message(1, 'in the other episode')]),
    });
    served = await startServing(process.execPath, [CLI, 'serve', '--port', '0', runs], home.env);
  });
  test.afterAll(async () => {
    await served?.stop();
    home.remove();
  });

  test('reopens the cell and its stream: the events of the gap and the next one arrive, the list is listed again', async ({ page }) => {
    // Every WebSocket of the page goes through here, so the test can cut it and keep it cut for a while.
    const open: { page: WebSocketRoute; server: WebSocketRoute }[] = [];
    let refusing = false;
    await page.routeWebSocket(/\/ws$/, (ws) => {
      if (refusing) return void ws.close({ code: 1006 });
      open.push({ page: ws, server: ws.connectToServer() });
    });
    await page.goto(served.url);
    await page.getByRole('button', { name: CELL }).click();
    await page.getByRole('tab', { name: 'Episodes' }).click();
    const rows = page.getByRole('table', { name: 'Episodes' }).getByRole('row');
    await rows.filter({ hasText: /^0/ }).first().click();
    const events = page.getByRole('log', { name: 'Events' });
    await expect(events).toContainText('before the drop');

    refusing = true;
    for (const socket of open.splice(0)) {
      await socket.server.close();
      await socket.page.close({ code: 1006 });
    }
    await expect(page.getByRole('status').filter({ hasText: 'reconnecting' })).toBeVisible();
    appendFileSync(trajectory('0000'), jsonl([message(2, 'written while the window was away')]));
    writeTree(join(runs, 'std_sdk_m_bare_made-while-away'), { 'run.json': { runner: 'coding-agent' } });
    // Long enough for the core to have listed the new cell while no window was there to be told.
    await page.waitForTimeout(2000);
    refusing = false;

    await expect(events).toContainText('written while the window was away');
    appendFileSync(trajectory('0000'), jsonl([message(3, 'after the reconnect')]));
    await expect(events).toContainText('after the reconnect');
    // Each event once: the gap was read on from the last one held, not from the file's end again.
    await expect(events.getByText('before the drop')).toHaveCount(1);
    await expect(page.getByRole('status').filter({ hasText: 'reconnecting' })).toHaveCount(0);

    // Another episode opens: the core knows the cell is open again.
    await rows.filter({ hasText: /^1/ }).first().click();
    await expect(events).toContainText('in the other episode');
    await page.getByRole('button', { name: /Back to the cell list/ }).click();
    await expect(page.getByRole('table', { name: 'Cells' })).toContainText('made-while-away');
  });
});
