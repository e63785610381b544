import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { Transport } from '../../shared/contract';
import type { Presence } from '../../shared/presence';
import { createData, type Data } from './data/data';
import type { Feed, Fed } from './data/feed';
import { createAppStore, type AppState, type AppStore } from './data/store';

interface Provided {
  store: AppStore;
  data: Data;
}

const AppContext = createContext<Provided | null>(null);

/** The window's store and data layer, made once from its transport: the only place that holds it. */
export function AppProvider({ transport, children }: { transport: Transport; children: ReactNode }) {
  const [provided] = useState<Provided>(() => ({ store: createAppStore(transport), data: createData(transport) }));
  return <AppContext.Provider value={provided}>{children}</AppContext.Provider>;
}

function useProvided(): Provided {
  const provided = useContext(AppContext);
  if (!provided) throw new Error('used outside AppProvider');
  return provided;
}

export function useApp<T>(select: (state: AppState) => T): T {
  return useStore(useProvided().store, select);
}

/** The store itself, for what follows it from outside React (the URL). */
export function useAppStore(): AppStore {
  return useProvided().store;
}

/** The feeds and actions of the data layer. */
export function useData(): Data {
  return useProvided().data;
}

/** A feed's value, held while the calling view is mounted. */
export function useFeed<T>(pick: (data: Data) => Feed<T>): Fed<T> {
  const feed = pick(useData());
  useEffect(() => feed.hold(), [feed]);
  return useStore(feed.store);
}

/** Whether the core answers the window now. */
export function usePresence(): Presence {
  return useStore(useData().presence, (s) => s.presence);
}
