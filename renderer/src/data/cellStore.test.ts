import { describe, expect, it, vi } from 'vitest';
import type { CellDetail, EpisodeRow, StreamEvent } from '../../../shared/cell-detail';
import type { CellSummary } from '../../../shared/model';
import { fakeTransport } from '../testing';
import { NotFoundError } from '../../../shared/errors';
import { applyDeltas, createCellStore, type CellViewState } from './cellStore';

const summary = { id: 'local:/runs/a', name: 'a', state: 'running', problems: [] } as unknown as CellSummary;
const row = (id: string, status = 'running'): EpisodeRow => ({ id, status, success: null, scored: false, toolCalls: null, actions: null, wallS: null, t: null, note: null, hasEvents: true });
const event = (episode: string, seq: number): StreamEvent => ({ episode, seq, t: null, ev: 'tool_call', line: seq + 1, end: (seq + 1) * 10, fields: {} });
const detail = (): CellDetail => ({
  summary,
  episodes: [row('1', 'success'), row('3')],
  versions: [],
  vram: [],
  startedAt: null,
  episodeBudget: null,
  frameSources: [],
  logStream: null,
  otherBudgets: [],
    tables: [],
    programs: [],
});
const state = (patch: Partial<CellViewState> = {}) => ({ detail: detail(), error: null, problems: [], stream: '3', events: [], startedMidFile: false, ...patch }) as CellViewState;

describe('applyDeltas', () => {
  it('merges summary fields, upserts episodes in id order, keeps only the open stream\'s events', () => {
    const next = applyDeltas(state(), [
      { cellId: summary.id, summary: { state: 'finished' }, episodes: [row('3', 'failure'), row('2')], events: [event('3', 0), event('2', 0)] },
    ]);
    expect(next.detail?.summary).toMatchObject({ name: 'a', state: 'finished' });
    expect(next.detail?.episodes.map((e) => [e.id, e.status])).toEqual([['1', 'success'], ['2', 'running'], ['3', 'failure']]);
    expect(next.events).toEqual([event('3', 0)]);
  });

  it('applies a batch in order: the later delta of a row wins, events and problems append in order', () => {
    const next = applyDeltas(state(), [
      { cellId: summary.id, episodes: [row('3', 'success')], events: [event('3', 0)], problems: [{ file: 'x.jsonl', line: 4, message: 'malformed', severity: 'error' }] },
      { cellId: summary.id, episodes: [row('3', 'failure')], events: [event('3', 1)], problems: [{ file: 'x.jsonl', line: 9, message: 'malformed', severity: 'error' }] },
    ]);
    expect(next.detail?.episodes.find((e) => e.id === '3')?.status).toBe('failure');
    expect(next.events?.map((e) => e.seq)).toEqual([0, 1]);
    expect(next.problems?.map((p) => p.line)).toEqual([4, 9]);
  });

  it('keeps at most 20,000 events of a stream, the newest', () => {
    const many = Array.from({ length: 20_005 }, (_, i) => event('3', i));
    const next = applyDeltas(state(), [{ cellId: summary.id, events: many }]);
    expect(next.events).toHaveLength(20_000);
    expect(next.events?.[0]?.seq).toBe(5);
  });

  it('does nothing before the cell has opened', () => {
    expect(applyDeltas(state({ detail: null }), [{ cellId: summary.id, summary: { state: 'finished' } }])).toEqual({});
  });
});

describe('createCellStore', () => {
  it('opens the cell, then draws a delta after a quiet frame at once and those that follow within it together', async () => {
    const transport = fakeTransport({ openCell: async () => detail(), closeCell: async () => undefined });
    const store = createCellStore(transport, summary.id);
    await expect.poll(() => store.getState().detail?.summary.name).toBe('a');
    let renders = 0;
    store.subscribe(() => renders++);
    // The clock held still while the deltas come: "within the frame" is not left to how busy the machine is.
    const clock = vi.spyOn(performance, 'now').mockReturnValue(1000);
    transport.emit('cellChanged', { cellId: summary.id, episodes: [row('4')] });
    expect(renders).toBe(1);
    expect(store.getState().detail?.episodes.map((e) => e.id)).toEqual(['1', '3', '4']);
    transport.emit('cellChanged', { cellId: 'local:/runs/other', episodes: [row('9')] });
    transport.emit('cellChanged', { cellId: summary.id, episodes: [row('5')] });
    transport.emit('cellChanged', { cellId: summary.id, episodes: [row('6')] });
    expect(renders).toBe(1);
    await expect.poll(() => store.getState().detail?.episodes.map((e) => e.id)).toEqual(['1', '3', '4', '5', '6']);
    expect(renders).toBe(2);
    clock.mockRestore();
    await store.getState().close();
    expect(transport.calls).toContain('closeCell');
  });

  it('after the connection comes back: opens the cell again and reads its stream on from the last event held', async () => {
    const resumes: unknown[] = [];
    let opens = 0;
    const transport = fakeTransport({
      openCell: async () => (opens++, detail()),
      closeCell: async () => undefined,
      openStream: async (_id, _stream, resume) => {
        resumes.push(resume);
        return { events: resume ? [event('3', 2), event('3', 3)] : [event('3', 0), event('3', 1)], problems: [], startedMidFile: false };
      },
    });
    const store = createCellStore(transport, summary.id);
    await expect.poll(() => store.getState().detail).not.toBeNull();
    await store.getState().openStream('3');
    expect(store.getState().events.map((e) => e.seq)).toEqual([0, 1]);
    transport.reopen();
    await expect.poll(() => store.getState().events.map((e) => e.seq)).toEqual([0, 1, 2, 3]);
    expect(opens).toBe(2);
    // Event 1 ends at byte 20 on line 2: the stream goes on at line 3.
    expect(resumes).toEqual([undefined, { offset: 20, line: 3 }]);
    await store.getState().close();
  });

  it("says why a cell could not be opened, keeping the error's kind", async () => {
    const transport = fakeTransport({ openCell: async () => Promise.reject(new NotFoundError('no such cell: local:/runs/a')) });
    const store = createCellStore(transport, summary.id);
    await expect.poll(() => store.getState().error).toMatchObject({ name: 'NotFoundError', message: 'no such cell: local:/runs/a' });
  });

  it('opens a cell not listed yet once its root lists it, with the episode asked for', async () => {
    let listed = false;
    const transport = fakeTransport({
      openCell: async () => (listed ? detail() : Promise.reject(new NotFoundError('local:/runs/a is not a cell of a runs root'))),
      openStream: async () => (listed ? { events: [event('3', 0)], startedMidFile: false, problems: [] } : Promise.reject(new NotFoundError('local:/runs/a is not a cell of a runs root'))),
    });
    const store = createCellStore(transport, summary.id);
    await store.getState().openStream('3');
    await expect.poll(() => store.getState().error?.name).toBe('NotFoundError');
    // Another cell listed: still not found.
    transport.emit('cellsChanged', { root: 'local:/runs', added: [{ ...summary, id: 'local:/runs/b' }], changed: [], removed: [] });
    listed = true;
    transport.emit('cellsChanged', { root: 'local:/runs', added: [summary], changed: [], removed: [] });
    await expect.poll(() => store.getState().detail?.summary.id).toBe(summary.id);
    expect(store.getState().error).toBeNull();
    await expect.poll(() => store.getState().events).toEqual([event('3', 0)]);
    expect(transport.calls.filter((m) => m === 'openCell')).toHaveLength(2);
    await store.getState().close();
  });
});
