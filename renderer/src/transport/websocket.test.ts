import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { MAX_CALL_BYTES, type WireCall } from '../../../shared/contract';
import { WebSocketTransport } from './websocket';

// A server that takes what serve takes (ws closes a connection that sends more) and answers each call with its method's name.
let server: WebSocketServer;
let transport: WebSocketTransport;
const received: string[] = [];
beforeEach(async () => {
  received.length = 0;
  server = new WebSocketServer({ port: 0, host: '127.0.0.1', maxPayload: MAX_CALL_BYTES });
  server.on('connection', (ws) =>
    ws.on('message', (data) => {
      const call = JSON.parse(String(data)) as WireCall;
      received.push(call.method);
      ws.send(Buffer.from(JSON.stringify({ id: call.id, ok: true, result: call.method })));
    }),
  );
  await new Promise((resolve) => server.once('listening', resolve));
  // The window's WebSocket, as the page has it.
  (globalThis as { WebSocket?: unknown }).WebSocket = WebSocket;
  transport = new WebSocketTransport(`ws://127.0.0.1:${(server.address() as { port: number }).port}`);
});
afterEach(async () => {
  // The transport reconnects for as long as a page lives: here it meets a socket that never opens, and stops.
  (globalThis as { WebSocket?: unknown }).WebSocket = class {};
  for (const client of server.clients) client.terminate();
  await new Promise((resolve) => server.close(resolve));
});

describe('a call past what the server takes', () => {
  it('fails alone, saying its size, and is never sent: the connection and the calls after it go on', async () => {
    const presences: string[] = [];
    transport.onPresence((presence) => presences.push(presence));
    const call = transport.call as unknown as (method: string, ...args: unknown[]) => Promise<unknown>;
    await expect(call('getInfo')).resolves.toBe('getInfo');
    await expect(call('listFrames', 'local:/runs/a', { kind: 'episode', episode: 'é'.repeat(600_000) })).rejects.toThrow(/^listFrames: the call is 1\.1 MB, past the 1\.0 MB the Cellwatch server takes; not sent$/);
    await expect(call('listCells')).resolves.toBe('listCells');
    expect(received).toEqual(['getInfo', 'listCells']);
    expect(presences).not.toContain('reconnecting');
  });
});
