import { useCallback, useEffect, useState } from 'react';
import { later } from './later';
import { CellList } from './cell-list/CellList';
import { Palette } from './palette/Palette';
import { useApp, useAppStore } from './context';
import { followHash } from './routing';
import type { View } from './data/store';
import { ViewBoundary } from './ViewBoundary';
import { EmptyState } from './roots/EmptyState';
import { RootProblems } from './roots/RootProblems';
import { Sidebar } from './shell/Sidebar';
import { StatusBar } from './shell/StatusBar';
import { UndoRemoval } from './roots/UndoRemoval';
import { ViewTabs } from './shell/ViewTabs';
import { TopBar } from './shell/TopBar';
import { ShortcutsHelp } from './shell/ShortcutsHelp';
import { useKey } from './keys';

// The list is the first screen; every other view (and recharts with its charts) is loaded once the first
// rows are on screen, so they wait for none of it.
const CellView = later(() => import('./cell-view/CellView').then((m) => m.CellView));
const BoardView = later(() => import('./board/BoardView').then((m) => m.BoardView));
const PairedTestView = later(() => import('./stats/PairedTestView').then((m) => m.PairedTestView));
const CompareView = later(() => import('./compare/CompareView').then((m) => m.CompareView));
const GpuView = later(() => import('./gpu/GpuView').then((m) => m.GpuView));
const RunsView = later(() => import('./launch/RunsView').then((m) => m.RunsView));
const FleetView = later(() => import('./fleet/FleetView').then((m) => m.FleetView));
const LATER_VIEWS = [CellView, BoardView, PairedTestView, CompareView, GpuView, RunsView, FleetView];

/**
 * Loads the views one at a time, each when the page is idle: their code's first run is a task of its own,
 * not one long task after the first rows. A failed load is tried again when its view is opened, and said there.
 */
function preloadInTurn(views: { preload(): Promise<unknown> }[]): () => void {
  let stopped = false;
  const idle = () => new Promise<void>((resolve) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(() => resolve()) : setTimeout(resolve, 0)));
  void (async () => {
    for (const view of views) {
      await idle();
      if (stopped) return;
      await view.preload().catch(() => undefined);
    }
  })();
  return () => {
    stopped = true;
  };
}

const VIEW_NAMES: Record<View, string> = { cells: 'Cells', board: 'Board', paired: 'Paired test', compare: 'Compare', gpu: 'GPU', runs: 'Runs', fleet: 'Fleet' };

export function App() {
  const load = useApp((s) => s.load);
  const loaded = useApp((s) => s.loaded);
  const hasRoots = useApp((s) => s.roots.length > 0);
  const view = useApp((s) => s.view);
  const openCellId = useApp((s) => s.openCellId);
  const sidebar = useApp((s) => s.sidebar);
  const toggleSidebar = useApp((s) => s.toggleSidebar);

  useEffect(() => {
    void load();
  }, [load]);
  const store = useAppStore();
  useEffect(() => followHash(store), [store]);
  useEffect(() => {
    // The ready signal e2e specs wait for: the first data has arrived and is on screen.
    if (!loaded) return;
    document.body.dataset.ready = 'true';
    return preloadInTurn(LATER_VIEWS);
  }, [loaded]);

  const [palette, setPalette] = useState(false);
  const [help, setHelp] = useState(false);
  useKey('?', useCallback(() => setHelp((open) => !open), []));
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setPalette((open) => !open);
      }
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'b') {
        event.preventDefault();
        toggleSidebar();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggleSidebar]);

  return (
    <div className={`shell${sidebar ? '' : ' sidebar-hidden'}`}>
      {palette && (
        <ViewBoundary name="Go to">
          <Palette onClose={() => setPalette(false)} onHelp={() => setHelp(true)} />
        </ViewBoundary>
      )}
      {help && <ShortcutsHelp onClose={() => setHelp(false)} />}
      <ViewBoundary name="Top bar">
        <TopBar />
      </ViewBoundary>
      <ViewBoundary name="Sidebar">
        <Sidebar />
      </ViewBoundary>
      <main className="content" aria-busy={!loaded}>
        {!loaded ? null : hasRoots ? (
          openCellId ? (
            <ViewBoundary key={openCellId} name="Cell">
              <CellView cellId={openCellId} />
            </ViewBoundary>
          ) : (
            <>
              <ViewTabs />
              <RootProblems />
              <ViewBoundary key={view} name={VIEW_NAMES[view]}>
                {view === 'cells' && <CellList />}
                {view === 'board' && <BoardView />}
                {view === 'paired' && <PairedTestView />}
                {view === 'compare' && <CompareView />}
                {view === 'gpu' && <GpuView />}
                {view === 'runs' && <RunsView />}
                {view === 'fleet' && <FleetView />}
              </ViewBoundary>
            </>
          )
        ) : (
          <EmptyState />
        )}
      </main>
      <UndoRemoval />
      <ViewBoundary name="Status bar">
        <StatusBar />
      </ViewBoundary>
    </div>
  );
}
