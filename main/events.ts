import type { BackendEvents, EventName, Unsubscribe } from '../shared/contract';

type Listener<E extends EventName> = (payload: BackendEvents[E]) => void;

/** A typed event hub; `on` returns its unsubscribe function, as the contract promises. */
export class EventHub {
  private readonly listeners = new Map<EventName, Set<Listener<EventName>>>();

  on<E extends EventName>(event: E, listener: Listener<E>): Unsubscribe {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as Listener<EventName>);
    return () => set.delete(listener as Listener<EventName>);
  }

  emit<E extends EventName>(event: E, payload: BackendEvents[E]): void {
    for (const listener of this.listeners.get(event) ?? []) listener(payload);
  }
}
