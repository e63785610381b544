import { useEffect } from 'react';
import { CellView } from './cell/CellView';
import { CompareView } from './compare/CompareView';
import { GpuView } from './gpu/GpuView';
import { CellList } from './cells/CellList';
import { useApp } from './context';
import { EmptyState } from './roots/EmptyState';
import { RootProblems } from './roots/RootProblems';
import { Sidebar } from './shell/Sidebar';
import { StatusBar } from './shell/StatusBar';
import { ViewTabs } from './shell/ViewTabs';
import { PairedTestView } from './stats/PairedTestView';
import { TopBar } from './shell/TopBar';

export function App() {
  const load = useApp((s) => s.load);
  const loaded = useApp((s) => s.loaded);
  const hasRoots = useApp((s) => s.roots.length > 0);
  const view = useApp((s) => s.view);
  const openCellId = useApp((s) => s.openCellId);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    // The ready signal e2e specs wait for: the first data has arrived and is on screen.
    if (loaded) document.body.dataset.ready = 'true';
  }, [loaded]);

  return (
    <div className="shell">
      <TopBar />
      <Sidebar />
      <main className="content" aria-busy={!loaded}>
        {!loaded ? null : hasRoots ? (
          openCellId ? (
            <CellView cellId={openCellId} />
          ) : (
            <>
              <ViewTabs />
              <RootProblems />
              {view === 'cells' && <CellList />}
              {view === 'paired' && <PairedTestView />}
              {view === 'compare' && <CompareView />}
              {view === 'gpu' && <GpuView />}
            </>
          )
        ) : (
          <EmptyState />
        )}
      </main>
      <StatusBar />
    </div>
  );
}
