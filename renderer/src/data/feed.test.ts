import { describe, expect, it } from 'vitest';
import type { CellsDelta } from '../../../shared/model';
import type { GpuSample } from '../../../shared/machine';
import type { RunInfo } from '../../../shared/launch';
import { LOCAL } from '../../../shared/address';
import { fakeTransport } from '../testing';
import { Feed } from './feed';
import { createData } from './data';

const noCells: CellsDelta = { root: '/runs', added: [], changed: [], removed: [] };
const sample = (t: number, host?: string): GpuSample => ({ t, gpus: [], processes: [], ...(host ? { host } : {}) });

/** A question the test answers when it likes. */
function pending<T>() {
  const waiting: ((value: T) => void)[] = [];
  return { ask: () => new Promise<T>((resolve) => waiting.push(resolve)), answer: (value: T) => waiting.shift()?.(value), get asked() { return waiting.length; } };
}

describe('a feed', () => {
  it('asks when first held, once more after the events that came while it asked, and not at all once let go', async () => {
    const transport = fakeTransport({});
    const question = pending<number>();
    let asks = 0;
    const feed = new Feed(transport, { ask: () => (asks++, question.ask()), asksAgainOn: ['cellsChanged'] });
    const release = feed.hold();
    const second = feed.hold();
    expect(asks).toBe(1);
    for (let i = 0; i < 3; i++) transport.emit('cellsChanged', noCells);
    expect(asks).toBe(1);
    question.answer(1);
    await expect.poll(() => asks).toBe(2);
    question.answer(2);
    await expect.poll(() => feed.store.getState().value).toBe(2);
    release();
    transport.emit('cellsChanged', noCells);
    expect(asks).toBe(3);
    question.answer(3);
    second();
    transport.emit('cellsChanged', noCells);
    transport.reopen();
    await new Promise((r) => setTimeout(r, 20));
    expect(asks).toBe(3);
    // Kept for the next view that holds it.
    expect(feed.store.getState().value).toBe(3);
  });

  it('asks again when the connection comes back: the events of the gap were missed', async () => {
    const transport = fakeTransport({});
    let asks = 0;
    const feed = new Feed(transport, { ask: async () => ++asks });
    const release = feed.hold();
    await expect.poll(() => feed.store.getState().value).toBe(1);
    transport.reopen();
    await expect.poll(() => feed.store.getState().value).toBe(2);
    release();
  });

  it('keeps the error of a failed question beside the last value, and clears it with the next answer', async () => {
    const transport = fakeTransport({});
    let fail = false;
    const feed = new Feed(transport, { ask: async () => (fail ? Promise.reject(new Error('gone')) : 7), asksAgainOn: ['hostsChanged'] });
    const release = feed.hold();
    await expect.poll(() => feed.store.getState().value).toBe(7);
    fail = true;
    transport.emit('hostsChanged', []);
    await expect.poll(() => feed.store.getState().error?.message).toBe('gone');
    expect(feed.store.getState().value).toBe(7);
    fail = false;
    transport.emit('hostsChanged', []);
    await expect.poll(() => feed.store.getState().error).toBeNull();
    release();
  });
});

describe('the data layer', () => {
  it('keeps this machine\'s GPU samples (the last 600) apart from each host\'s', async () => {
    const transport = fakeTransport({ gpuStatus: async (host) => ({ available: true, problems: [], history: host ? [sample(-1, host)] : [] }) });
    const data = createData(transport);
    const local = data.gpuOf(LOCAL);
    const gpu1 = data.gpuOf('gpu1');
    const releases = [local.hold(), gpu1.hold()];
    await expect.poll(() => gpu1.store.getState().value?.history.length).toBe(1);
    for (let t = 0; t < 605; t++) transport.emit('gpuSample', sample(t));
    transport.emit('gpuSample', sample(999, 'gpu1'));
    const history = local.store.getState().value?.history ?? [];
    expect(history).toHaveLength(600);
    expect([history[0]?.t, history.at(-1)?.t]).toEqual([5, 604]);
    expect(gpu1.store.getState().value?.history.map((s) => s.t)).toEqual([-1, 999]);
    releases.forEach((release) => release());
  });

  it('takes the runs as the core tells them, without asking again', async () => {
    const run = (id: string) => ({ id }) as RunInfo;
    const transport = fakeTransport({ listRuns: async () => [run('a')] });
    const data = createData(transport);
    const release = data.runs.hold();
    await expect.poll(() => data.runs.store.getState().value?.map((r) => r.id)).toEqual(['a']);
    transport.emit('runsChanged', [run('a'), run('b')]);
    expect(data.runs.store.getState().value?.map((r) => r.id)).toEqual(['a', 'b']);
    expect(transport.calls.filter((m) => m === 'listRuns')).toHaveLength(1);
    release();
  });

  it('gives a recording the progress that came before its id, then only its own', async () => {
    const transport = fakeTransport({
      record: async () => {
        transport.emit('recordProgress', { id: 'other', fraction: 0.5 });
        transport.emit('recordProgress', { id: 'mine', fraction: 0, error: 'no ffmpeg' });
        return { id: 'mine' };
      },
    });
    const told: unknown[] = [];
    await createData(transport).record('a:v001', '3', 2, 10, (p) => told.push(p));
    transport.emit('recordProgress', { id: 'mine', fraction: 1, url: 'late' });
    expect(told).toEqual([{ id: 'mine', fraction: 0, error: 'no ffmpeg' }]);
  });
});
