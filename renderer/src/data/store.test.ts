import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_ALERT_PREFS } from '../../../shared/alerts';
import type { AppInfo, CellSummary, RootStatus } from '../../../shared/model';
import { createAppStore } from './store';
import { UNDO_MS } from '../roots/removal';
import { fakeTransport } from '../testing';

const info = { name: 'Cellwatch', version: '0.1.0', transport: 'serve', canPickFolder: false, settingsFile: '/x/settings.json', whatIsACell: '', demoContents: '', problems: [] } as AppInfo;
const root = (path: string): RootStatus => ({ path, source: 'settings', state: 'ok', cellCount: 1, problems: [], progress: null, limit: null });
const cell = (name: string) => ({ id: `local:/runs/${name}`, name }) as CellSummary;

function backend(cells: CellSummary[] = [cell('a')]) {
  return {
    getInfo: async () => info,
    listRoots: async () => [root('/runs')],
    listCells: async () => cells,
    listHosts: async () => [],
    listAlerts: async () => ({ alerts: [], readUntil: 0, prefs: DEFAULT_ALERT_PREFS }),
  };
}

describe('the app store', () => {
  it('loads info, roots, cells, hosts and alerts at once', async () => {
    const store = createAppStore(fakeTransport(backend()));
    await store.getState().load();
    expect(store.getState()).toMatchObject({ loaded: true, info, roots: [root('/runs')], cells: [cell('a')], error: null });
  });

  describe('removing a root', () => {
    afterEach(() => vi.useRealTimers());
    const withCells = () => {
      const removed: string[] = [];
      const transport = fakeTransport({ ...backend([{ ...cell('a'), root: '/runs' }]), removeRoot: async (path) => void removed.push(path) });
      return { removed, transport, store: createAppStore(transport) };
    };

    it('takes the root and its cells out at once, and asks the core only when the undo time is up', async () => {
      vi.useFakeTimers();
      const { removed, transport, store } = withCells();
      await store.getState().load();
      await store.getState().removeRoot('/runs');
      expect(store.getState()).toMatchObject({ roots: [], cells: [], removing: { path: '/runs' } });
      // What the core sends meanwhile still leaves it out.
      transport.emit('rootsChanged', [root('/runs')]);
      expect(store.getState().roots).toEqual([]);
      await vi.advanceTimersByTimeAsync(UNDO_MS - 1);
      expect(removed).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(removed).toEqual(['/runs']);
      expect(store.getState().removing).toBeNull();
    });

    it('is undone by Undo: nothing is asked of the core, and the root is listed again', async () => {
      vi.useFakeTimers();
      const { removed, store } = withCells();
      await store.getState().load();
      await store.getState().removeRoot('/runs');
      await store.getState().undoRemove();
      expect(store.getState()).toMatchObject({ roots: [root('/runs')], removing: null });
      expect(store.getState().cells).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(UNDO_MS * 2);
      expect(removed).toEqual([]);
    });
  });

  it('keeps the newest alert settings on screen while the core answers an older change late', async () => {
    const answers: (() => void)[] = [];
    const store = createAppStore(
      fakeTransport({
        ...backend(),
        // The core answers each change with what it saved, once the test lets it.
        setAlertPrefs: (prefs) => new Promise((resolve) => answers.push(() => resolve({ alerts: [], readUntil: 0, prefs }))),
      }),
    );
    await store.getState().load();
    const stall = store.getState().setAlertPrefs((p) => ({ ...p, stallSeconds: 120 }));
    const muted = store.getState().setAlertPrefs((p) => ({ ...p, cellOff: { 'local:/runs/a': ['finished'] } }));
    (answers[0] as () => void)();
    await stall;
    // The first answer knows nothing of the second change: the second stays on screen.
    expect(store.getState().alerts?.prefs).toMatchObject({ stallSeconds: 120, cellOff: { 'local:/runs/a': ['finished'] } });
    (answers[1] as () => void)();
    await muted;
    expect(store.getState().alerts?.prefs).toMatchObject({ stallSeconds: 120, cellOff: { 'local:/runs/a': ['finished'] } });
  });

  it('keeps the reason an action failed until the next one succeeds', async () => {
    let refuse = true;
    const transport = fakeTransport({
      ...backend(),
      addRoot: async (path) => (refuse ? Promise.reject(new Error('runs root must be an absolute path')) : root(path)),
    });
    const store = createAppStore(transport);
    expect(await store.getState().addRoot('relative')).toBe(false);
    expect(store.getState().error?.message).toBe('runs root must be an absolute path');
    refuse = false;
    expect(await store.getState().addRoot(' /runs2 ')).toBe(true);
    expect(store.getState()).toMatchObject({ error: null, selectedRoot: '/runs2' });
  });

  it('applies list deltas in order: added, changed in place, removed; a root change alone refetches nothing', async () => {
    const transport = fakeTransport(backend([cell('a'), cell('b')]));
    const store = createAppStore(transport);
    await store.getState().load();
    const changed = { ...cell('a'), state: 'finished' } as CellSummary;
    transport.emit('cellsChanged', { root: '/runs', added: [cell('c')], changed: [], removed: [] });
    transport.emit('cellsChanged', { root: '/runs', added: [], changed: [changed], removed: [cell('b').id] });
    transport.emit('cellsChanged', { root: '/runs', added: [], changed: [{ ...cell('c'), state: 'stale' } as CellSummary], removed: [] });
    expect(store.getState().cells.map((c) => [c.name, c.state])).toEqual([['a', 'finished'], ['c', 'stale']]);
    const calls = transport.calls.length;
    transport.emit('rootsChanged', [root('/runs')]);
    expect(transport.calls.length).toBe(calls);
  });

  it('lists everything again when the connection comes back: the deltas of the gap were never received', async () => {
    let cells = [cell('a')];
    const transport = fakeTransport({ ...backend(), listCells: async () => cells });
    const store = createAppStore(transport);
    await store.getState().load();
    cells = [cell('a'), cell('made while away')];
    transport.reopen();
    await expect.poll(() => store.getState().cells.map((c) => c.name)).toEqual(['a', 'made while away']);
  });

  it('opening a view closes the open cell; compare opens the Compare view on its slots', () => {
    const store = createAppStore(fakeTransport(backend()));
    store.getState().openCell('local:/runs/a');
    store.getState().compare('a:v001,a:v002');
    expect(store.getState()).toMatchObject({ view: 'compare', compareSlots: 'a:v001,a:v002', openCellId: null });
  });
});
