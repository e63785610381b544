import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALERT_KINDS, type Alert, type AlertKind } from '../../shared/alerts';
import { cellId } from '../../shared/address';
import { age, jsonl, tempDir, writeTree } from '../../runners/testing';
import { runCli } from '../cli/run';
import { capture } from '../cli/testing';
import { createCore, type Core } from '../core';

let tmp: ReturnType<typeof tempDir>;
let runs: string;
let dataDir: string;
const cores: Core[] = [];
beforeEach(() => {
  tmp = tempDir();
  runs = join(tmp.path, 'runs');
  dataDir = join(tmp.path, 'data');
});
afterEach(async () => {
  await Promise.all(cores.splice(0).map((core) => core.close()));
  tmp.remove();
});

/** A coding-agent cell of two planned episodes, the first ended with a success. */
function writeCell(name: string, summary: object = {}, more: Record<string, string | object> = {}): string {
  writeTree(runs, {
    [`${name}/run.json`]: { runner: 'coding-agent', run: name, protocol: { episodes: [0, 1] } },
    [`${name}/summary.json`]: { planned: [0, 1], episodes: { 0: { status: 'evaluated', success: true } }, finished: false, ...summary },
    ...Object.fromEntries(Object.entries(more).map(([file, text]) => [`${name}/${file}`, text])),
  });
  return join(runs, name);
}

const finish = (name: string) =>
  writeCell(name, { episodes: { 0: { status: 'evaluated', success: true }, 1: { status: 'evaluated', success: false } }, finished: true });

async function start(nvidiaSmi: string | false = false): Promise<{ core: Core; raised: Alert[] }> {
  const core = await createCore({ configDir: join(tmp.path, 'config'), dataDir, transport: 'serve', commandLineRoots: [runs], rescan: false, nvidiaSmi, alerts: { checkMs: 100 } });
  cores.push(core);
  const raised: Alert[] = [];
  core.events.on('alertRaised', (alert) => raised.push(alert));
  await core.scanned();
  return { core, raised };
}

/** Waits for `condition`; the limit is there to end a hang, not to race a busy machine (a pinned test is paired in a worker that starts first). */
const until = (condition: () => boolean, ms = 60_000) => expect.poll(condition, { timeout: ms }).toBe(true);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('alerts', () => {
  it('says once when a cell finishes, with its success rate; a cell already finished at the start says nothing', async () => {
    writeCell('std_done');
    finish('std_done');
    const cell = writeCell('std_live');
    const { core, raised } = await start();
    finish('std_live');
    await until(() => raised.length > 0);
    await sleep(500);
    expect(raised.map((a) => [a.kind, a.cell, a.subject, a.message])).toEqual([['finished', cellId('local', cell), 'std_live', 'finished: 50.0 % success (1 of 2 scored)']]);
    expect((await core.listAlerts()).alerts).toEqual(raised);
  });

  it('says a running cell stalled after the threshold, never during a throttle countdown', async () => {
    const now = Date.now() / 1000;
    const throttled = (t: number, waitS: number) => ({ 'episodes/0001/trajectory.jsonl': jsonl([{ seq: 1, t, ev: 'throttle', attempt: 1, wait_s: waitS }]) });
    writeCell('std_quiet');
    // Written as the quiet one, its countdown an hour: however long the start takes, it is still counting down.
    writeCell('std_throttled', {}, throttled(now, 3600));
    // Last written 20 s ago, its 10 s pause over 10 s ago: quiet since its pause ended.
    age(writeCell('std_resumed', {}, throttled(now - 20, 10)), ['run.json', 'summary.json', 'episodes/0001/trajectory.jsonl', 'episodes/0001', 'episodes', '.'], 20_000);
    const { core, raised } = await start();
    await core.setAlertPrefs({ ...(await core.listAlerts()).prefs, stallSeconds: 1 });
    await until(() => raised.length > 1);
    await sleep(1000);
    // The quiet cell and the one whose pause ended have stalled once each; the one counting down has not.
    expect(raised.map((a) => [a.kind, a.subject]).sort()).toEqual([
      ['stalled', 'std_quiet'],
      ['stalled', 'std_resumed'],
    ]);
    expect(raised.find((a) => a.subject === 'std_quiet')?.message).toMatch(/^stalled: no new bytes for \d+ s$/);
    expect(raised.find((a) => a.subject === 'std_resumed')?.message).toMatch(/^stalled: no new bytes for \d+ s, after its throttle pause ended$/);
  });

  it('says a launched run failed, with its last stderr line', async () => {
    const { core, raised } = await start();
    const command = `mkdir -p {cell} && echo '{"runner": "coding-agent"}' > {cell}/run.json && echo starting && sleep 0.5 && echo "CUDA out of memory" >&2 && exit 3`;
    const { run, cellId: launched } = await core.launchRun({ profile: 'custom', values: { command, root: runs }, override: true });
    await until(() => raised.length > 0);
    expect(raised[0]).toMatchObject({ kind: 'crashed', cell: launched, subject: run.name, tab: 'logs', message: 'exited with code 3: CUDA out of memory' });
    expect(launched).toBe(cellId('local', run.cell));
  });

  it("says when a launched run's GPU is under the free-memory guard", async () => {
    // The RTX 2080 SUPER of the real captures (fixtures/noheader-nounits), with 7 GB taken by another process.
    writeTree(tmp.path, { 'gpus.csv': '0, NVIDIA GeForce RTX 2080 SUPER, 8192, 7169, 1002, 97\n' });
    process.env.FAKE_SMI_GPUS = join(tmp.path, 'gpus.csv');
    const { core, raised } = await start(join(import.meta.dirname, '..', 'gpu', 'fake', 'nvidia-smi'));
    // The run makes its folder a cell at once: the launch then finds it listed, rather than waiting for it.
    const { run } = await core.launchRun({ profile: 'custom', values: { command: 'echo \'{"runner": "coding-agent"}\' > {cell}/run.json; sleep 30', root: runs }, gpu: 0, override: true });
    try {
      await until(() => raised.length > 0);
      await sleep(1500);
      expect(raised.map((a) => [a.kind, a.subject, a.message])).toEqual([['gpu_low', run.name, 'GPU 0 has 1002 MiB free, under the 6000 MiB guard']]);
    } finally {
      await core.stopRun(run.id);
      delete process.env.FAKE_SMI_GPUS;
    }
  });

  it('says when a pinned paired test crosses p < 0.05, naming the side ahead', async () => {
    const ten = (wins: number) => Object.fromEntries(Array.from({ length: 10 }, (_, i) => [i, { status: 'evaluated', success: i < wins }]));
    // B is named for a model id with an @: that run, not an agent or version of a run `std_b`.
    const a = writeCell('std_a', { planned: [...Array(10).keys()], episodes: ten(2) });
    const b = writeCell('std_b@20250514', { planned: [...Array(10).keys()], episodes: ten(2) });
    const { core, raised } = await start();
    // Paired once first: the test's pause below is for the pin's first check, not for its worker to start.
    await core.pairedTest(cellId('local', a), cellId('local', b));
    await core.setAlertPrefs({ ...(await core.listAlerts()).prefs, pinned: [{ a: cellId('local', a), b: cellId('local', b) }] });
    await sleep(500);
    writeCell('std_b@20250514', { planned: [...Array(10).keys()], episodes: ten(8) });
    await until(() => raised.length > 0);
    expect(raised.map((r) => [r.kind, r.subject, r.message])).toEqual([['paired', 'std_a vs std_b@20250514', 'std_b@20250514 is ahead: p = 0.031 < 0.05 (0 vs 6 discordant episodes)']]);
  });

  it('raises nothing for a muted cell, nor a kind turned off for a cell or everywhere', async () => {
    const muted = writeCell('std_muted');
    const partly = writeCell('std_partly');
    writeCell('std_other');
    const { core, raised } = await start();
    const all = Object.keys(ALERT_KINDS) as AlertKind[];
    await core.setAlertPrefs({ ...(await core.listAlerts()).prefs, cellOff: { [cellId('local', muted)]: all, [cellId('local', partly)]: ['finished'] }, off: ['budget'] });
    for (const name of ['std_muted', 'std_partly', 'std_other']) finish(name);
    await until(() => raised.length > 0);
    await sleep(500);
    expect(raised.map((a) => [a.kind, a.subject])).toEqual([['finished', 'std_other']]);
  });

  it('keeps alerts across a restart, and never raises the same one again', async () => {
    writeCell('std_quiet');
    const first = await start();
    await first.core.setAlertPrefs({ ...(await first.core.listAlerts()).prefs, stallSeconds: 1 });
    await until(() => first.raised.length > 0);
    await first.core.markAlertsRead(Date.now());
    await first.core.close();
    cores.length = 0;

    const second = await start();
    await sleep(1500);
    expect(second.raised).toEqual([]);
    const kept = await second.core.listAlerts();
    expect(kept.alerts.map((a) => [a.kind, a.subject])).toEqual([['stalled', 'std_quiet']]);
    expect(kept.readUntil).toBeGreaterThanOrEqual(kept.alerts[0]?.at ?? Infinity);
    // New bytes, then quiet again: a new stall, said once.
    appendFileSync(join(runs, 'std_quiet', 'driver.log'), 'step\n');
    await until(() => second.raised.length > 0);
    expect(JSON.parse(readFileSync(join(dataDir, 'alerts.json'), 'utf8')).alerts).toHaveLength(2);
    // Marked read as far on as anyone likes: the alerts raised after that are still unread.
    await second.core.markAlertsRead(253_402_300_799_999);
    appendFileSync(join(runs, 'std_quiet', 'driver.log'), 'step\n');
    await until(() => second.raised.length > 1);
    const after = await second.core.listAlerts();
    expect(after.readUntil).toBeLessThan(after.alerts.at(-1)?.at ?? 0);
  });

  it('`cellwatch alerts --json` prints the alerts the app raises, one a line', async () => {
    const cell = writeCell('std_live');
    const { raised } = await start();
    const { io, out, err } = capture();
    const stop = new AbortController();
    const cli = runCli(['alerts', '--json', runs], io, stop.signal);
    // Once it watches: a cell already finished when it starts says nothing.
    await until(() => err.some((l) => l.startsWith('watching 1 cell;')), 30_000);
    finish('std_live');
    await until(() => raised.length > 0 && out.length > 0);
    stop.abort();
    expect(await cli).toBe(0);
    const printed = out.map((line) => JSON.parse(line) as Alert);
    expect(printed.map(({ key, kind, cell: c, subject, message }) => ({ key, kind, cell: c, subject, message }))).toEqual(
      raised.map(({ key, kind, cell: c, subject, message }) => ({ key, kind, cell: c, subject, message })),
    );
    expect(printed[0]?.cell).toBe(cellId('local', cell));
  });
});
