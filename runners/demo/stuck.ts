// Two UI runs of the demo that need a person's look (shared/stuck.ts): one whose episode has written nothing
// for a quarter of an hour, and one whose agent repeats the same call. Named ui_* so they never sit on the board;
// written as they stand when the demo starts, then left alone, as a hung run leaves its files.
import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { Pace } from './pace';

export const STUCK_CELL = 'ui_demo_stuck';
export const LOOPING_CELL = 'ui_demo_looping';
const PLANNED = [0, 1, 2, 3, 4, 5, 6, 7];

async function runningCell(root: string, name: string, events: (seq: number) => object[], nowS: number): Promise<string> {
  const cell = join(root, name);
  // Only its files: the cell is written as it stands, its clock never advanced.
  const pace = new Pace(nowS, 1, false);
  await pace.writeJson(join(cell, 'run.json'), {
    runner: 'coding-agent', run: name, cell: { harness: 'sdk', model: 'demo-model', condition: name.replace('ui_demo_', ''), effort: 'default' },
    protocol: { name: 'std-v2', episodes: PLANNED, max_turns: 200, rgb_resolution: 512, max_actions: 500, timeout_s: 2400 },
    workers: 1, host: 'local', started_at: new Date((nowS - 1800) * 1000).toISOString(), argv: ['python', 'coding-agent/stdrun.py', 'run', name],
  });
  const ended = Object.fromEntries([0, 1, 2].map((e) => [String(e), { status: 'evaluated', success: e !== 1, engaged: true }]));
  await pace.writeJson(join(cell, 'summary.json'), { run: name, finished: false, planned: PLANNED, episodes: ended });
  for (const e of [0, 1, 2]) await pace.appendLine(join(cell, 'episodes', String(e).padStart(4, '0'), 'trajectory.jsonl'), { seq: 0, t: nowS - 1800 + e * 300, ev: 'episode_start', episode: e });
  const trajectory = join(cell, 'episodes', '0003', 'trajectory.jsonl');
  for (const event of [{ seq: 0, t: nowS - 1000, ev: 'episode_start', episode: 3, instruction: 'Keep the pole upright until the episode ends.' }, ...events(1)]) await pace.appendLine(trajectory, event);
  return trajectory;
}

/** Writes both cells as they stand `nowS` (epoch seconds). */
export async function writeStuckCells(root: string, nowS: number): Promise<void> {
  // Its last event 15 minutes ago: a tool call whose result never came, its trajectory untouched since.
  const hung = await runningCell(root, STUCK_CELL, (seq) => [
    { seq, t: nowS - 960, ev: 'agent_message', text: 'I will run the controller for a while.' },
    { seq: seq + 1, t: nowS - 900, ev: 'tool_call', call_id: 'c1', name: 'run_controller', args: { seconds: 30 } },
  ], nowS);
  await utimes(hung, nowS - 900, nowS - 900);
  // The same observation asked for six times in a row in the last minute.
  await runningCell(root, LOOPING_CELL, (seq) => Array.from({ length: 6 }, (_, i) => [
    { seq: seq + 2 * i, t: nowS - 60 + 8 * i, ev: 'tool_call', call_id: `c${i}`, name: 'observe_egocentric', args: {} },
    { seq: seq + 2 * i + 1, t: nowS - 59 + 8 * i, ev: 'tool_result', call_id: `c${i}`, name: 'observe_egocentric', ok: true },
  ]).flat(), nowS);
}
