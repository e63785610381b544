// For renderer tests: a Transport over a partial Backend, whose events the test emits.
import type { Backend, BackendEvents, EventName, Method, Transport } from '../../shared/contract';

export interface FakeTransport extends Transport {
  emit<E extends EventName>(event: E, payload: BackendEvents[E]): void;
  /** Method names in the order they were called. */
  calls: Method[];
  /** The connection came back, as a dropped WebSocket's does. */
  reopen(): void;
}

export function fakeTransport(backend: Partial<Backend>): FakeTransport {
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  const calls: Method[] = [];
  const reopened = new Set<() => void>();
  return {
    calls,
    call(method, ...args) {
      calls.push(method);
      const implementation = backend[method] as ((...a: unknown[]) => Promise<unknown>) | undefined;
      if (!implementation) return Promise.reject(new Error(`${method}: not in this test's backend`)) as never;
      return implementation(...args) as never;
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener as (payload: never) => void);
      return () => set.delete(listener as (payload: never) => void);
    },
    onReopened(listener) {
      reopened.add(listener);
      return () => reopened.delete(listener);
    },
    reopen() {
      reopened.forEach((listener) => listener());
    },
    presence: 'live',
    onPresence: () => () => undefined,
    emit(event, payload) {
      listeners.get(event)?.forEach((listener) => (listener as (p: typeof payload) => void)(payload));
    },
  };
}
