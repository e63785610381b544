import { useCallback, useEffect, useState } from 'react';
import { BoardView } from './board/BoardView';
import { CellView } from './cell-view/CellView';
import { CompareView } from './compare/CompareView';
import { FleetView } from './fleet/FleetView';
import { GpuView } from './gpu/GpuView';
import { RunsView } from './launch/RunsView';
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
import { PairedTestView } from './stats/PairedTestView';
import { TopBar } from './shell/TopBar';
import { ShortcutsHelp } from './shell/ShortcutsHelp';
import { useKey } from './keys';

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
    if (loaded) document.body.dataset.ready = 'true';
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
