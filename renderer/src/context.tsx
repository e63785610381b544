import { createContext, useContext, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { Transport } from '../../shared/contract';
import { createAppStore, type AppState, type AppStore } from './store';

const TransportContext = createContext<Transport | null>(null);
const StoreContext = createContext<AppStore | null>(null);

export function AppProvider({ transport, children }: { transport: Transport; children: ReactNode }) {
  const [store] = useState(() => createAppStore(transport));
  return (
    <TransportContext.Provider value={transport}>
      <StoreContext.Provider value={store}>{children}</StoreContext.Provider>
    </TransportContext.Provider>
  );
}

export function useTransport(): Transport {
  const transport = useContext(TransportContext);
  if (!transport) throw new Error('useTransport outside AppProvider');
  return transport;
}

export function useApp<T>(select: (state: AppState) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useApp outside AppProvider');
  return useStore(store, select);
}

/** The store itself, for what follows it from outside React (the URL). */
export function useAppStore(): AppStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useAppStore outside AppProvider');
  return store;
}
