import { createStore, type StoreApi } from 'zustand/vanilla';
import type { HostStatus, Transport } from '../../../shared/contract';
import type { AlertPrefs, AlertsState, CellTab } from '../../../shared/alerts';
import type { AppInfo, CellSummary, RootStatus } from '../../../shared/model';
import type { BoardField } from '../../../shared/board';
import { notify } from '../alerts/notify';
import { applyCellsDelta } from '../cells-delta';
import { readSidebar, saveSidebar } from '../sidebar-pref';
import { asError } from '../../../shared/errors';
import { hiddenRoot, UNDO_MS, without } from '../roots/removal';

export interface AppState {
  info: AppInfo | null;
  roots: RootStatus[];
  cells: CellSummary[];
  /** The runs root whose cells the list shows; null shows every root's. */
  selectedRoot: string | null;
  /** The host whose cells the list shows (from the Fleet view); null: every host's. */
  selectedHost: string | null;
  loaded: boolean;
  view: View;
  /** The cell whose view is open, replacing the list, and the tab it opened on. */
  openCellId: string | null;
  openCellTab: CellTab;
  /** The episode the open cell's Episodes tab shows; null: the newest running one. */
  openCellEpisode: string | null;
  /** The event (its seq) of that episode shown whole in the inspector. */
  openCellEvent: number | null;
  /** Where in the open cell the user is: its tab, episode and event. */
  setCellPlace(place: { tab?: CellTab; episode?: string | null; event?: number | null }): void;
  /** The cell list's filter and highlighted row: kept while a cell is open, so going back finds them. */
  listFilter: string;
  listCursor: string | null;
  setListFilter(filter: string): void;
  setListCursor(id: string | null): void;
  /** The Board view's board (null: the first anyone is on), the field across its columns, and whether it shows every cell. */
  boardName: string | null;
  boardAcross: BoardField;
  boardAll: boolean;
  setBoardPlace(place: { name?: string | null; across?: BoardField; all?: boolean }): void;
  /** The paired view's two sides (cell ids, or `<id>@vNNN`). */
  pairedA: string;
  pairedB: string;
  setPaired(a: string, b: string): void;
  /** The Launch dialog is open. */
  launching: boolean;
  /** The notification centre's list is open. */
  alertsOpen: boolean;
  setAlertsOpen(open: boolean): void;
  /** The sidebar is shown (Ctrl+B hides it; remembered in this browser). */
  sidebar: boolean;
  toggleSidebar(): void;
  setLaunching(open: boolean): void;
  hosts: HostStatus[];
  /** The slots the Compare view opens on. */
  compareSlots: string;
  /** The seed the Compare view shows; null: the one the core picks. */
  compareSeed: string | null;
  /** Where the Compare view's clock stands: its speed, and the time shown (seconds from the first frame) while paused. */
  compareSpeed: number;
  compareTime: number;
  setComparePlayback(playback: { speed?: number; time?: number }): void;
  /** The notification centre: alerts kept, what was read, the alert settings. */
  alerts: AlertsState | null;
  /** The runs root whose removal waits, until when: Undo takes it back (roots/removal.ts). */
  removing: { path: string; until: number } | null;
  undoRemove(): void;
  /** The last failed action (or what went wrong where no call failed), shown until the next one succeeds. */
  error: Error | null;
  /** Says what went wrong where no call failed (a launch that started, then could not watch its cell). */
  say(problem: string): void;
  load(): Promise<void>;
  addRoot(path: string): Promise<boolean>;
  pickAndAddRoot(): Promise<void>;
  removeRoot(path: string): Promise<void>;
  selectRoot(path: string | null): void;
  /** Shows the cells of one host (null: all) in the list. */
  selectHost(alias: string | null): void;
  setView(view: View): void;
  openCell(id: string, tab?: CellTab, episode?: string): void;
  closeCell(): void;
  /** Opens the Compare view on these slots (at this seed). */
  compare(slots: string, seed?: string | null): void;
  markAlertsRead(): Promise<void>;
  setAlertPrefs(change: (prefs: AlertPrefs) => AlertPrefs): Promise<void>;
}

export type View = 'cells' | 'board' | 'paired' | 'compare' | 'gpu' | 'runs' | 'fleet';

export type AppStore = StoreApi<AppState>;

/** One store per provider, never a module global, so each test or window gets a fresh one. */
export function createAppStore(transport: Transport): AppStore {
  const store = createStore<AppState>()((set, get) => {
    async function attempt(action: () => Promise<void>): Promise<boolean> {
      try {
        await action();
        set({ error: null });
        return true;
      } catch (error) {
        set({ error: asError(error) });
        return false;
      }
    }
    async function refresh(): Promise<void> {
      const [roots, cells] = await Promise.all([transport.call('listRoots'), transport.call('listCells')]);
      set(without(hiddenRoot(get()), { roots, cells }));
    }
    let removal: ReturnType<typeof setTimeout> | undefined;
    /** The alert settings asked for so far: only the newest one's answer is shown. */
    let prefsAsked = 0;
    /** The removal that waits, asked of the core now. */
    async function removeNow(): Promise<void> {
      const path = hiddenRoot(get());
      clearTimeout(removal);
      if (path === null) return;
      await attempt(async () => {
        await transport.call('removeRoot', path);
        set({ removing: null });
        await refresh();
      });
    }

    return {
      info: null,
      roots: [],
      cells: [],
      selectedRoot: null,
      selectedHost: null,
      loaded: false,
      view: 'cells',
      openCellId: null,
      openCellTab: 'overview',
      openCellEpisode: null,
      openCellEvent: null,
      setCellPlace(place) {
        set((s) => ({
          openCellTab: place.tab ?? s.openCellTab,
          openCellEpisode: place.episode === undefined ? s.openCellEpisode : place.episode,
          // Another episode is another stream: its event is not this one.
          openCellEvent: place.event !== undefined ? place.event : place.episode !== undefined && place.episode !== s.openCellEpisode ? null : s.openCellEvent,
        }));
      },
      listFilter: '',
      listCursor: null,
      setListFilter(filter) {
        set({ listFilter: filter });
      },
      setListCursor(id) {
        set({ listCursor: id });
      },
      boardName: null,
      boardAcross: 'model',
      boardAll: false,
      setBoardPlace({ name, across, all }) {
        set({ ...(name === undefined ? {} : { boardName: name }), ...(across === undefined ? {} : { boardAcross: across }), ...(all === undefined ? {} : { boardAll: all }) });
      },
      pairedA: '',
      pairedB: '',
      setPaired(a, b) {
        set({ pairedA: a, pairedB: b });
      },
      launching: false,
      sidebar: readSidebar(),
      toggleSidebar() {
        const sidebar = !get().sidebar;
        set({ sidebar });
        saveSidebar(sidebar);
      },
      setLaunching(open) {
        set({ launching: open });
      },
      hosts: [],
      compareSlots: '',
      compareSeed: null,
      compareSpeed: 1,
      compareTime: 0,
      alerts: null,
      error: null,
      say(problem) {
        set({ error: new Error(problem) });
      },
      async load() {
        await attempt(async () => {
          const [info, roots, cells, hosts, alerts] = await Promise.all([
            transport.call('getInfo'),
            transport.call('listRoots'),
            transport.call('listCells'),
            transport.call('listHosts'),
            transport.call('listAlerts'),
          ]);
          set({ info, ...without(hiddenRoot(get()), { roots, cells }), hosts, alerts, loaded: true });
        });
      },
      addRoot: (path) =>
        attempt(async () => {
          const added = await transport.call('addRoot', path.trim());
          set({ selectedRoot: added.path });
          await refresh();
        }),
      async pickAndAddRoot() {
        await attempt(async () => {
          const path = await transport.call('pickFolder');
          if (path) await get().addRoot(path);
        });
      },
      async removeRoot(path) {
        await removeNow();
        set((s) => ({ removing: { path, until: Date.now() + UNDO_MS }, ...without(path, s), ...(s.selectedRoot === path ? { selectedRoot: null } : {}) }));
        removal = setTimeout(() => void removeNow(), UNDO_MS);
      },
      removing: null,
      alertsOpen: false,
      setAlertsOpen(open) {
        set({ alertsOpen: open });
      },
      async undoRemove() {
        clearTimeout(removal);
        set({ removing: null });
        await attempt(refresh);
      },
      selectRoot(path) {
        set({ selectedRoot: path, selectedHost: null, view: 'cells', openCellId: null });
      },
      selectHost(alias) {
        set({ selectedHost: alias, selectedRoot: null, view: 'cells', openCellId: null });
      },
      setView(view) {
        set({ view, openCellId: null });
      },
      openCell(id, tab = 'overview', episode) {
        set({ openCellId: id, openCellTab: tab, openCellEpisode: episode ?? null, openCellEvent: null, listCursor: id });
      },
      closeCell() {
        set({ openCellId: null });
      },
      compare(slots, seed = null) {
        const same = slots === get().compareSlots && seed === get().compareSeed;
        set({ compareSlots: slots, compareSeed: seed, view: 'compare', openCellId: null, ...(same ? {} : { compareTime: 0 }) });
      },
      setComparePlayback({ speed, time }) {
        set({ ...(speed === undefined ? {} : { compareSpeed: speed }), ...(time === undefined ? {} : { compareTime: time }) });
      },
      async markAlertsRead() {
        const newest = get().alerts?.alerts.at(-1)?.at;
        if (newest === undefined || newest <= (get().alerts?.readUntil ?? 0)) return;
        await attempt(async () => set({ alerts: await transport.call('markAlertsRead', newest) }));
      },
      async setAlertPrefs(change) {
        const alerts = get().alerts;
        if (!alerts) return;
        // At once on screen (a checkbox must not bounce back while the core answers); the core's answer after,
        // unless another change came meanwhile: an answer to the one before would undo it until its own came.
        const prefs = change(alerts.prefs);
        const asked = ++prefsAsked;
        set((s) => ({ alerts: s.alerts && { ...s.alerts, prefs } }));
        const saved = await attempt(async () => {
          const answer = await transport.call('setAlertPrefs', prefs);
          if (asked === prefsAsked) set({ alerts: answer });
        });
        if (!saved && asked === prefsAsked) set((s) => ({ alerts: s.alerts && { ...s.alerts, prefs: alerts.prefs } }));
      },
    };
  });
  // The deltas of the gap are lost: everything listed is listed again.
  transport.onReopened(() => void store.getState().load());
  transport.on('rootsChanged', (roots) => store.setState(without(hiddenRoot(store.getState()), { roots })));
  transport.on('cellsChanged', (delta) => store.setState(({ cells }) => without(hiddenRoot(store.getState()), { cells: applyCellsDelta(cells, delta) })));
  transport.on('hostsChanged', (hosts) => store.setState({ hosts }));
  transport.on('alertRaised', (alert) => {
    store.setState(({ alerts }) => (alerts ? { alerts: { ...alerts, alerts: [...alerts.alerts, alert].slice(-1000) } } : {}));
    notify(alert, () => alert.cell !== null && store.getState().openCell(alert.cell, alert.tab));
  });
  return store;
}
