import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { useData } from '../context';
import type { CellStore, CellViewState } from '../data/cellStore';

const CellContext = createContext<CellStore | null>(null);

/** One store per open cell: created when the view opens, closed (and the cell released) when it goes. */
export function CellProvider({ cellId, children }: { cellId: string; children: ReactNode }) {
  const data = useData();
  const [store, setStore] = useState<CellStore | null>(null);
  useEffect(() => {
    const created = data.openCell(cellId);
    setStore(created);
    return () => void created.getState().close();
  }, [data, cellId]);
  return store ? <CellContext.Provider value={store}>{children}</CellContext.Provider> : null;
}

export function useCell<T>(select: (state: CellViewState) => T): T {
  const store = useContext(CellContext);
  if (!store) throw new Error('useCell outside CellProvider');
  return useStore(store, select);
}
