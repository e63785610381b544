import type { Transport } from '../../../shared/contract';
import { electronBridge, withPlainErrors } from './electron';
import { WebSocketTransport } from './websocket';

/** Chosen once at start: the Electron bridge when the preload exposed it, else the serve-mode WebSocket. */
export function pickTransport(): Transport {
  const bridge = electronBridge();
  if (bridge) return withPlainErrors(bridge);
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return new WebSocketTransport(`${scheme}://${location.host}/ws`);
}
