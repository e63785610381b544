import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonl, tempDir, writeTree } from '../../runners/testing';
import { clockTime } from '../../shared/model';
import { runCli } from './run';
import { capture } from './testing';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.remove());

describe('cellwatch status', () => {
  it('prints what a run directory says without letting it drive the terminal', async () => {
    const evil = 'std_x\u001b]2;owned\u0007\n\u001b[31mfake line';
    writeTree(tmp.path, { 'cell/run.json': { runner: 'coding-agent', run: evil }, 'cell/summary.json': '{"episodes": ' });
    const { io, out, err } = capture();
    expect(await runCli(['status', tmp.path], io)).toBe(0);
    const text = [...out, ...err].join('\n');
    // eslint-disable-next-line no-control-regex -- no control character but the newline may reach the terminal
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    // The table (a header and one row), then why the cell is off the board, each on one line.
    expect(out[0]?.split('\n')).toHaveLength(2);
    expect(out[1]?.split('\n')).toEqual(['', 'Not on the board:', expect.stringContaining('run.json has no protocol')]);
    expect(text).toContain('std_x\\e]2;owned\\x07\\n\\e[31mfake line');
  });

  it('says what a cell is, each format named as it is found, when a path names none', async () => {
    writeTree(tmp.path, { 'notes.txt': 'hello', 'empty/notes.txt': 'hello' });
    const cellIs = 'is not a cell: a cell is a folder with a run.json from coding-agent, bigym-agent or evopolicygym, a Harbor job folder, a NeMo Gym rollouts file or an Inspect AI log (.eval or .json)';
    for (const [command, path] of [['status', join(tmp.path, 'notes.txt')], ['tail', join(tmp.path, 'empty')]] as const) {
      const { io, err } = capture();
      expect(await runCli([command, path], io)).toBe(2);
      expect(err).toEqual([`cellwatch ${command}: ${path} ${cellIs}`]);
    }
  });

  it('names a stuck unit in its format\'s word, as the window and the alerts do', async () => {
    // Episode 0 has written nothing for 20 minutes; the run itself still moves (its run.json is new).
    const quiet = Date.now() / 1000 - 20 * 60;
    writeTree(tmp.path, {
      'std_a/run.json': { runner: 'coding-agent', run: 'std_a', protocol: { episodes: [0, 1] } },
      'std_a/episodes/0000/trajectory.jsonl': jsonl([{ seq: 0, t: quiet, ev: 'episode_start', episode: 0 }]),
    });
    utimesSync(join(tmp.path, 'std_a/episodes/0000/trajectory.jsonl'), quiet, quiet);
    const { io, out } = capture();
    expect(await runCli(['status', tmp.path], io)).toBe(0);
    expect(out.join('\n')).toMatch(/\nStuck or looping:\n {2}std_a episode 0 stuck: no new event for 20 min$/);
  });

  it('says a throttled cell is throttled, and until when; --json says its state', async () => {
    const t = Date.now() / 1000;
    writeTree(tmp.path, {
      'std_a/run.json': { runner: 'coding-agent', run: 'std_a' },
      'std_a/episodes/0000/trajectory.jsonl': jsonl([{ seq: 0, t, ev: 'throttle', attempt: 1, wait_s: 300 }]),
    });
    const table = capture();
    expect(await runCli(['status', tmp.path], table.io)).toBe(0);
    expect(table.out.join('\n')).toContain(`throttled until ${clockTime((t + 300) * 1000)}`);
    const json = capture();
    expect(await runCli(['status', '--json', tmp.path], json.io)).toBe(0);
    expect(JSON.parse(json.out.join('\n')).cells[0].state).toBe('throttled');
  });

  it("prices tokens at the user's list price, names it, and keeps the runner's own figure out of the estimate", async () => {
    const saved = process.env.XDG_CONFIG_HOME;
    process.env.XDG_CONFIG_HOME = join(tmp.path, 'config');
    try {
      writeTree(join(tmp.path, 'config', 'cellwatch'), { 'prices.yml': 'openai/gpt-6-luna: {input: 2.0, cached_input: 0.5, output: 8.0, source: "list price, 2026-11-01"}\n' });
      const run = { runner: 'bigym-agent', model: 'gpt-6-luna', status: 'running', tokens: { input: 1_200_000, cached_input: 800_000, output: 90_000, reasoning: 40_000 }, cost: { estimate_usd: 3.12, billed_usd: 2.5 } };
      writeTree(join(tmp.path, 'runs'), { 'move_plate/run.json': run, 'other/run.json': { ...run, model: 'unpriced-model' } });
      const { io, out } = capture();
      expect(await runCli(['status', '--json', join(tmp.path, 'runs')], io)).toBe(0);
      const cells = JSON.parse(out.join('\n')).cells;
      expect(cells.map((c: Record<string, unknown>) => [c.name, c.cost_usd_estimate, c.cost_usd_billed, c.cost_source])).toEqual([
        ['move_plate', 1.92, 2.5, 'prices.yml: openai/gpt-6-luna, list price, 2026-11-01'],
        ['other', null, 2.5, 'no list price for unpriced-model in prices.yml'],
      ]);
      expect(cells[0].tokens.reasoning).toBe(40_000);
    } finally {
      if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = saved;
    }
  });

  it('puts every cell of a ui_ run folder off the board, whatever the runner names the cell', async () => {
    writeTree(tmp.path, { 'ui_try_codex/move_plate/run.json': { runner: 'bigym-agent' }, 'std/move_plate/run.json': { runner: 'bigym-agent' } });
    const { io, out } = capture();
    expect(await runCli(['status', '--json', tmp.path], io)).toBe(0);
    const cells = (JSON.parse(out.join('\n')) as { cells: { path: string; board: string; board_reasons: string[] }[] }).cells;
    expect(cells.map((c) => [c.path, c.board, c.board_reasons])).toEqual([
      [join(tmp.path, 'std', 'move_plate'), 'off', ['no policy submitted', 'sandbox_config.json missing or unreadable: its flags are unknown']],
      [join(tmp.path, 'ui_try_codex', 'move_plate'), 'ui', ['launched from a UI (ui_): never on the board']],
    ]);
  });
});
