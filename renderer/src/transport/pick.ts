import type { Transport } from '../../../shared/contract';
import { electronTransport } from './electron';
import { WebSocketTransport } from './websocket';

/** Chosen once at start: the Electron bridge when the preload exposed it, else the serve-mode WebSocket. */
export function pickTransport(): Transport {
  const electron = electronTransport();
  if (electron) return electron;
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return new WebSocketTransport(`${scheme}://${location.host}/ws`);
}
