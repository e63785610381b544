import { MAX_CALL_BYTES, unwrapReply, type BackendEvents, type EventName, type Transport, type WireCall, type WireEvent, type WireReply } from '../../../shared/contract';
import type { Presence } from '../../../shared/presence';
import { megabytes } from '../../../shared/counts';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

const MAX_BACKOFF_MS = 5000;
const UTF8 = new TextDecoder();
const TO_UTF8 = new TextEncoder();

/**
 * The contract over the serve-mode WebSocket. Calls made while disconnected wait for the connection;
 * a dropped connection fails its calls in flight and reconnects with backoff, then says so (`onReopened`).
 */
export class WebSocketTransport implements Transport {
  private socket: WebSocket | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Calls made while disconnected, as their text. */
  private readonly queue: string[] = [];
  private readonly listeners = new Map<EventName, Set<(payload: never) => void>>();
  private readonly presenceListeners = new Set<(presence: Presence) => void>();
  private readonly reopenedListeners = new Set<() => void>();
  private backoff = 250;
  presence: Presence = 'connecting';

  constructor(private readonly url: string) {
    this.connect();
  }

  private setPresence(presence: Presence): void {
    this.presence = presence;
    this.presenceListeners.forEach((listener) => listener(presence));
  }

  private connect(): void {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      const reopened = this.presence === 'reconnecting';
      this.backoff = 250;
      this.setPresence('live');
      // What the window had open goes first: a call queued meanwhile may need its cell opened again.
      if (reopened) this.reopenedListeners.forEach((listener) => listener());
      for (const call of this.queue.splice(0)) socket.send(call);
    };
    // The server sends each message as a binary frame of UTF-8 JSON (server.ts says why).
    socket.binaryType = 'arraybuffer';
    socket.onmessage = (message: MessageEvent<ArrayBuffer>) => this.receive(JSON.parse(UTF8.decode(message.data)) as WireReply | WireEvent);
    socket.onclose = () => {
      for (const [id, pending] of this.pending) {
        pending.reject(new Error('connection to the Cellwatch server lost'));
        this.pending.delete(id);
      }
      this.setPresence('reconnecting');
      setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    };
  }

  private receive(message: WireReply | WireEvent): void {
    if ('event' in message) {
      this.listeners.get(message.event)?.forEach((listener) => listener(message.payload as never));
      return;
    }
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    try {
      pending.resolve(unwrapReply(message));
    } catch (error) {
      pending.reject(error as Error);
    }
  }

  call: Transport['call'] = ((method: string, ...args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      const call: WireCall = { id: this.nextId++, method, args };
      const text = JSON.stringify(call);
      // Sent, a call past what serve takes would close the connection and fail every call in flight with it.
      const bytes = text.length * 3 > MAX_CALL_BYTES ? TO_UTF8.encode(text).length : 0;
      if (bytes > MAX_CALL_BYTES) return reject(new Error(`${method}: the call is ${megabytes(bytes, 1)}, past the ${megabytes(MAX_CALL_BYTES, 1)} the Cellwatch server takes; not sent`));
      this.pending.set(call.id, { resolve, reject });
      if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(text);
      else this.queue.push(text);
    })) as Transport['call'];

  on<E extends EventName>(event: E, listener: (payload: BackendEvents[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }

  onReopened(listener: () => void): () => void {
    this.reopenedListeners.add(listener);
    return () => this.reopenedListeners.delete(listener);
  }

  onPresence(listener: (presence: Presence) => void): () => void {
    this.presenceListeners.add(listener);
    return () => this.presenceListeners.delete(listener);
  }
}
