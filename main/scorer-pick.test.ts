// A scorer picked for an Inspect log's outcomes: saved in the settings, and every figure read by it, the list's
// row, the open cell's view and `cellwatch status` alike.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inspectLog, restoreEnv, tempDir } from '../runners/testing';
import { runCli } from './cli/run';
import { capture } from './cli/testing';
import { closedAfterEach } from './testing';

let tmp: ReturnType<typeof tempDir>;
let configDir: string;
let log: string;
const saved = { ...process.env };
beforeEach(() => {
  tmp = tempDir();
  configDir = join(tmp.path, 'config', 'cellwatch');
  process.env.XDG_CONFIG_HOME = join(tmp.path, 'config');
  process.env.XDG_DATA_HOME = join(tmp.path, 'data');
  mkdirSync(join(tmp.path, 'logs'));
  log = join(tmp.path, 'logs', '2026-12-01T10-00-00+00-00_arith_x.eval');
  // Two scorers that disagree: `match` passes 3 of 4, `strict` 1 of 4.
  const samples = [1, 2, 3, 4].map((id) => ({ id, epoch: 1, scores: { match: id < 4 ? 'C' : 'I', strict: id === 1 ? 'C' : 'I' } }));
  writeFileSync(log, inspectLog({ task: 'arith', model: 'openai/gpt-4o', sampleIds: [1, 2, 3, 4], epochs: 1, scorer: 'match', samples, status: 'success' }));
});
afterEach(() => {
  restoreEnv(saved);
  tmp.remove();
});
const startCore = closedAfterEach();

describe('the scorer an Inspect log is read by', () => {
  it('is its first until another is picked; then the row, the open view and status all read by it, and a restart keeps it', async () => {
    const core = await startCore({ configDir, transport: 'serve', rescan: false, nvidiaSmi: false });
    await core.addRoot(join(tmp.path, 'logs'));
    const id = `local:${log}`;
    const row = async () => (await core.listCells()).find((c) => c.id === id);
    expect(await row()).toMatchObject({ success_rate: 0.75, reward: { of: 'match' } });
    const detail = await core.openCell(id);
    expect(detail.outcomeBy).toEqual({ scorer: 'match', scorers: ['match', 'strict'], first: 'match' });

    const cellChanged = new Promise<void>((resolve) => core.events.on('cellChanged', (delta) => delta.summary?.reward?.of === 'strict' && resolve()));
    await core.setScorer(id, 'strict');
    await expect.poll(async () => (await row())?.success_rate).toBe(0.25);
    expect((await row())?.reward?.of).toBe('strict');
    await cellChanged;
    expect(JSON.parse(readFileSync(join(configDir, 'settings.json'), 'utf8')).scorers).toEqual({ [id]: 'strict' });

    // The CLI reads the same settings: its figures are the window's.
    const { io, out } = capture();
    expect(await runCli(['status', '--json', log], io)).toBe(0);
    expect(JSON.parse(out.join('\n')).cells[0]).toMatchObject({ success_rate: 0.25, reward: { of: 'strict' } });

    // Another start on the same settings reads it so.
    const again = await startCore({ configDir, transport: 'serve', rescan: false, nvidiaSmi: false, dataDir: join(tmp.path, 'data2') });
    await again.scanned();
    expect((await again.listCells())[0]).toMatchObject({ success_rate: 0.25, reward: { of: 'strict' } });

    // Back to its first.
    await core.setScorer(id, null);
    await expect.poll(async () => (await row())?.success_rate).toBe(0.75);
    expect(JSON.parse(readFileSync(join(configDir, 'settings.json'), 'utf8')).scorers).toEqual({});
  });

  it('says so where the scorer picked is not in the log, and reads it by its first; only an Inspect log takes one', async () => {
    mkdirSync(configDir, { recursive: true });
    writeFileSync(join(configDir, 'settings.json'), JSON.stringify({ roots: [join(tmp.path, 'logs')], scorers: { [`local:${log}`]: 'gone' } }));
    const core = await startCore({ configDir, transport: 'serve', rescan: false, nvidiaSmi: false });
    await core.scanned();
    const [cell] = await core.listCells();
    expect(cell).toMatchObject({ success_rate: 0.75, reward: { of: 'match' } });
    expect(cell?.problems.map((p) => p.message)).toContain('the scorer picked for its outcomes, gone, is not in this log: its first, match, is used');
    await expect(core.setScorer('local:/nowhere', 'x')).rejects.toThrow(/not a cell/);
  });
});
