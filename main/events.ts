import type { BackendEvents, EventName, Unsubscribe } from '../shared/contract';

type Listener<E extends EventName> = (payload: BackendEvents[E]) => void;

/** What a transport listens to: the core's hub, or one client's share of it. */
export interface EventSource {
  on<E extends EventName>(event: E, listener: Listener<E>): Unsubscribe;
}

/** A typed event hub; `on` returns its unsubscribe function, as the contract promises. */
export class EventHub implements EventSource {
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

/** For the events one client is told of only when it shows them: whether this payload is one. */
export type Interest = { [E in EventName]?: (payload: BackendEvents[E]) => boolean };

/** The events of `hub` a client hears: all of an event without an interest, else those its interest takes. */
export function eventsFor(hub: EventSource, interest: Interest): EventSource {
  return {
    on(event, listener) {
      const wants = interest[event] as ((payload: BackendEvents[typeof event]) => boolean) | undefined;
      return hub.on(
        event,
        wants
          ? (payload) => {
              if (wants(payload)) listener(payload);
            }
          : listener,
      );
    },
  };
}
