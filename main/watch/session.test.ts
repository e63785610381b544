import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CellDelta } from '../../shared/cell-detail';
import { context, jsonl, tempDir, writeTree } from '../../runners/testing';
import { createCore, type Core } from '../core';
import { readCell, summaryOf } from '../../runners/read';
import { localHostContext } from '../place/context';
import type { FormatName } from '../../shared/model';
import { OpenCellReader } from './open-reader';
import { CellSession } from './session';
import { GatedRead } from '../testing';

let tmp: ReturnType<typeof tempDir>;
let core: Core;
let deltas: CellDelta[];
let cell: string;
let id: string;

const run = { runner: 'coding-agent', run: 'std_sdk_m_bare_default', protocol: { episodes: [0, 1, 2], max_turns: 200, max_actions: 500, timeout_s: 2400 } };
const ev = (seq: number, name: string, extra: object = {}) => ({ seq, t: 1764403200 + seq, ev: name, ...extra });

beforeEach(async () => {
  tmp = tempDir();
  cell = join(tmp.path, 'runs', run.run);
  writeTree(cell, {
    'run.json': run,
    'summary.json': { run: run.run, planned: [0, 1, 2], episodes: {}, aggregate: {} },
    'episodes/0000/trajectory.jsonl': jsonl([ev(0, 'episode_start', { episode: 0 }), ev(1, 'agent_message', { text: 'hello' })]),
    'vram.jsonl': jsonl([{ t: 1764403200, gpu: 0, used_mib: 1000, total_mib: 80000 }]),
  });
  core = await createCore({ configDir: join(tmp.path, 'config'), transport: 'serve', commandLineRoots: [join(tmp.path, 'runs')], rescan: false, nvidiaSmi: false });
  await core.scanned();
  id = `local:${cell}`;
  deltas = [];
  core.events.on('cellChanged', (d) => deltas.push(d));
});
afterEach(async () => {
  await core.close();
  tmp.remove();
});

type Listed = 'episodes' | 'vram' | 'events' | 'problems';
const all = <K extends Listed>(key: K) => deltas.flatMap((d) => (d[key] ?? []) as NonNullable<CellDelta[K]>[number][]);

describe('an open cell', () => {
  it('opens with its detail: running episode, budgets, vram', async () => {
    const detail = await core.openCell(id);
    expect(detail.episodes).toEqual([expect.objectContaining({ id: '0', status: 'running', hasEvents: true })]);
    expect(detail.episodeBudget).toEqual({ turns: 200, actions: 500, timeoutS: 2400 });
    expect(detail.vram).toEqual([{ t: 1764403200000, gpu: 0, usedMib: 1000, totalMib: 80000 }]);
    expect(detail.summary.budget).toEqual({ unit: 'episodes', used: 0, total: 3 });
  });

  it('streams new events of an open episode, reports a malformed line with file and line, and keeps going', async () => {
    await core.openCell(id);
    const opened = await core.openStream(id, '0');
    expect(opened.events.map((e) => [e.seq, e.ev])).toEqual([[0, 'episode_start'], [1, 'agent_message']]);
    const trajectory = join(cell, 'episodes/0000/trajectory.jsonl');
    appendFileSync(trajectory, `${JSON.stringify(ev(2, 'tool_call', { name: 'observe' }))}\n{"seq": 3, "ev": tool\n`);
    appendFileSync(trajectory, `${JSON.stringify(ev(4, 'throttle', { attempt: 1, wait_s: 30 }))}\n`);
    await expect.poll(() => all('events').map((e) => e.seq)).toEqual([2, 4]);
    expect(all('events')[1]).toMatchObject({ ev: 'throttle', fields: { attempt: 1, wait_s: 30 } });
    expect(all('problems')).toContainEqual({ file: 'episodes/0000/trajectory.jsonl', line: 4, message: expect.stringContaining('malformed JSON'), severity: 'error' });
  });

  it('reopened from the last event a window holds (its connection came back): the events written meanwhile, each once, then live', async () => {
    const window = core.client();
    await window.openCell(id);
    const first = await window.openStream(id, '0');
    const last = first.events.at(-1);
    expect(last).toMatchObject({ seq: 1, line: 2 });
    // The window's connection drops: the core lets its cell go; the run writes on.
    await window.dispose();
    const trajectory = join(cell, 'episodes/0000/trajectory.jsonl');
    appendFileSync(trajectory, jsonl([ev(2, 'tool_call'), ev(3, 'tool_result')]));
    const again = core.client();
    await again.openCell(id);
    const resumed = await again.openStream(id, '0', { offset: last?.end ?? 0, line: 3 });
    expect(resumed.events.map((e) => [e.seq, e.line])).toEqual([[2, 3], [3, 4]]);
    expect(resumed.startedMidFile).toBe(false);
    appendFileSync(trajectory, jsonl([ev(4, 'agent_message')]));
    await expect.poll(() => all('events').map((e) => e.seq)).toEqual([4]);
    await again.dispose();
  });

  it('sends only what changed when an episode ends and a new one starts', async () => {
    await core.openCell(id);
    writeFileSync(
      join(cell, 'summary.json'),
      JSON.stringify({ run: run.run, planned: [0, 1, 2], episodes: { '0': { status: 'evaluated', success: true, engaged: true, tool_calls: 3 } }, aggregate: {} }),
    );
    writeTree(cell, { 'episodes/0001/trajectory.jsonl': jsonl([ev(0, 'episode_start')]) });
    await expect.poll(() => all('episodes').map((e) => `${e.id}:${e.status}`)).toEqual(expect.arrayContaining(['0:evaluated', '1:running']));
    const summaries = deltas.flatMap((d) => (d.summary ? [d.summary] : []));
    expect(summaries.at(-1)).toMatchObject({ budget: { unit: 'episodes', used: 1, total: 3 }, success_rate: 1 });
    expect(Object.keys(summaries.at(-1) ?? {})).not.toContain('name');
  });

  it('appends vram samples as they are written', async () => {
    await core.openCell(id);
    appendFileSync(join(cell, 'vram.jsonl'), `${JSON.stringify({ t: 1764403260, gpu: 0, used_mib: 2000, total_mib: 80000 })}\n`);
    await expect.poll(() => all('vram').map((s) => s.usedMib)).toEqual([2000]);
  });

  it('is shared by clients and released when the last one goes', async () => {
    const a = core.client();
    const b = core.client();
    await a.openCell(id);
    await b.openCell(id);
    await a.dispose();
    appendFileSync(join(cell, 'vram.jsonl'), `${JSON.stringify({ t: 1764403270, gpu: 0, used_mib: 3000 })}\n`);
    await expect.poll(() => all('vram').length).toBe(1);
    await b.dispose();
    appendFileSync(join(cell, 'vram.jsonl'), `${JSON.stringify({ t: 1764403280, gpu: 0, used_mib: 4000 })}\n`);
    await new Promise((r) => setTimeout(r, 300));
    expect(all('vram').length).toBe(1);
  });

  it('tells a cell\'s deltas only to the windows that have it open; the core hears all', async () => {
    const a = core.client();
    const b = core.client();
    const heard = { a: [] as CellDelta[], b: [] as CellDelta[] };
    a.events.on('cellChanged', (d) => heard.a.push(d));
    b.events.on('cellChanged', (d) => heard.b.push(d));
    await a.openCell(id);
    appendFileSync(join(cell, 'vram.jsonl'), `${JSON.stringify({ t: 1764403290, gpu: 0, used_mib: 5000 })}\n`);
    await expect.poll(() => heard.a.flatMap((d) => d.vram ?? []).map((s) => s.usedMib)).toEqual([5000]);
    expect(all('vram').map((s) => s.usedMib)).toEqual([5000]);
    expect(heard.b).toEqual([]);
    await a.dispose();
    await b.dispose();
  });

  it('opens with the malformed lines of every episode\'s trajectory, as the list and status --json count them', async () => {
    writeTree(cell, { 'episodes/0001/trajectory.jsonl': '{"seq": 0}\n{broken\n' });
    const detail = await core.openCell(id);
    expect(detail.summary.problems).toContainEqual({ file: 'episodes/0001/trajectory.jsonl', line: 2, message: expect.stringContaining('malformed JSON'), severity: 'error' });
  });

  it('a log no one follows, written to while the cell is open, has its malformed lines shown at the next reread', async () => {
    writeTree(cell, { 'episodes/0001/trajectory.jsonl': '{"seq": 0}\n' });
    await core.openCell(id);
    appendFileSync(join(cell, 'episodes', '0001', 'trajectory.jsonl'), '{"seq": 1}\n{broken\n');
    writeTree(cell, { 'summary.json': { run: run.run, planned: [0, 1, 2], episodes: { '0': { status: 'evaluated', success: true } }, aggregate: {} } });
    await expect.poll(() => all('problems')).toContainEqual({ file: 'episodes/0001/trajectory.jsonl', line: 3, message: expect.stringContaining('malformed JSON'), severity: 'error' });
  });

  it('follows a stream while any client holds it: one leaving keeps it flowing for the other', async () => {
    const a = core.client();
    const b = core.client();
    const trajectory = join(cell, 'episodes', '0000', 'trajectory.jsonl');
    for (const client of [a, b]) {
      await client.openCell(id);
      expect((await client.openStream(id, '0')).events.map((e) => e.seq)).toEqual([0, 1]);
    }
    await a.closeStream(id, '0');
    await a.closeStream(id, '0');
    appendFileSync(trajectory, jsonl([ev(2, 'tool_call')]));
    await expect.poll(() => all('events').map((e) => e.seq)).toEqual([2]);
    await b.dispose();
    await a.dispose();
    appendFileSync(trajectory, jsonl([ev(3, 'tool_call')]));
    await new Promise((r) => setTimeout(r, 1500));
    expect(all('events').map((e) => e.seq)).toEqual([2]);
  });

  it('serves frames only from inside a listed cell', async () => {
    writeTree(cell, { 'episodes/0000/frames/000001.png': 'png' });
    const frames = await core.listFrames(id, { kind: 'episode', episode: '0' });
    expect(frames.cameras[0]?.urls).toEqual([`media/${encodeURIComponent(id)}/episodes/0000/frames/000001.png`]);
    expect(await core.media(`/${frames.cameras[0]?.urls[0]}`)).toEqual({ file: join(cell, 'episodes/0000/frames/000001.png') });
    expect(await core.media(`/media/${encodeURIComponent(id)}/../../../etc/passwd`)).toBeNull();
    expect(await core.media(`/media/${encodeURIComponent('local:/etc')}/passwd`)).toBeNull();
  });
});

describe("an open cell's rereads", () => {
  /** A reader whose reads are held while its gate is shut. */
  class GatedReader extends OpenCellReader {
    readonly gate = new GatedRead();
    override async detail(host: string, dir: string, format: FormatName) {
      await this.gate.run();
      return super.detail(host, dir, format);
    }
  }

  // A read of a cell of thousands of episodes takes longer than its log takes to grow by a line: each
  // change asked for a read of its own, queued behind the others, and the view fell ever further behind.
  it('one at a time: the changes made during a read ask for one read after it, not one each', async () => {
    const reader = new GatedReader(() => {
      throw new Error('no host but this machine');
    });
    const summary = summaryOf(await readCell(cell, 'coding-agent', context()), join(tmp.path, 'runs'));
    const session = new CellSession(summary, localHostContext(), (delta) => deltas.push(delta), (row) => row, reader);
    try {
      await session.open();
      expect(reader.gate.count).toBe(1);
      reader.gate.shut();
      session.reread();
      await expect.poll(() => reader.gate.count).toBe(2);
      // Each change well apart from the last, as lines written one by one are.
      for (let i = 0; i < 5; i++) {
        session.reread();
        await new Promise((r) => setTimeout(r, 60));
      }
      expect(reader.gate.count).toBe(2);
      reader.gate.open();
      await expect.poll(() => reader.gate.count, { timeout: 15_000 }).toBe(3);
    } finally {
      reader.gate.open();
      await session.close();
      await reader.close();
    }
    expect(reader.gate.count).toBe(3);
  });
});
