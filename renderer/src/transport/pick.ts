import type { Transport } from '../../../shared/contract';
import { electronTransport } from './electron';
import { WebSocketTransport } from './websocket';

/** Chosen once at start: the Electron bridge when the preload exposed it, else the serve-mode WebSocket. */
export function pickTransport(): Transport {
  const electron = electronTransport();
  if (electron) return electron;
  // Relative to the page, which serve mode puts under its per-start path (`/TOKEN/`).
  const url = new URL('ws', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return new WebSocketTransport(url.href);
}
