import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { WireEvent, WireReply } from '../../shared/contract';
import { closedAfterEach } from '../testing';
import { tempDir, writeTree } from '../../runners/testing';
import { startServer, type RunningServer } from './server';

let tmp: ReturnType<typeof tempDir>;
let server: RunningServer;
let base: string;

beforeEach(async () => {
  tmp = tempDir();
  writeTree(tmp.path, { 'renderer/index.html': '<!doctype html><title>Cellwatch</title>', 'secret.txt': 'do not serve' });
  const core = await startCore({ configDir: join(tmp.path, 'config'), transport: 'serve', rescan: false, nvidiaSmi: false });
  server = await startServer({ host: '127.0.0.1', port: 0, rendererDir: join(tmp.path, 'renderer'), core });
  base = `http://127.0.0.1:${server.port}`;
});
afterEach(async () => {
  await server.close();
  tmp.remove();
});
// Registered after the folder's removal, so it runs before it: after-hooks run in reverse order.
const startCore = closedAfterEach();

function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers, setHost: !('host' in headers) }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function connect(options: { token?: string; origin?: string; host?: string } = {}): Promise<WebSocket> {
  const prefix = options.token === undefined ? '' : `/${options.token}`;
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}${prefix}/ws`, {
    headers: { ...(options.host ? { host: options.host } : {}) },
    ...(options.origin ? { origin: options.origin } : {}),
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused with ${res.statusCode}`)));
    ws.on('error', reject);
  });
}

/** Every message the socket receives, in order, awaited one at a time. */
function inbox(ws: WebSocket): () => Promise<WireReply | WireEvent> {
  const arrived: (WireReply | WireEvent)[] = [];
  let wake: (() => void) | undefined;
  ws.on('message', (data) => {
    arrived.push(JSON.parse(String(data)));
    wake?.();
  });
  return async () => {
    while (arrived.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return arrived.shift() as WireReply | WireEvent;
  };
}

describe('serve mode HTTP', () => {
  it('prints a URL whose path carries the token', () => {
    expect(server.url).toBe(`${base}/${server.token}/`);
    expect(server.token.length).toBeGreaterThanOrEqual(32);
  });

  it('refuses a request without the token (401) and with a wrong one (403)', async () => {
    expect((await get('/')).status).toBe(401);
    expect((await get('/index.html')).status).toBe(401);
    expect((await get(`/${'x'.repeat(server.token.length)}/`)).status).toBe(403);
    expect((await get(`/?token=${server.token}`)).status).toBe(401);
  });

  it('serves the renderer with a CSP under the token\'s path, and sets no cookie, which every other port of this host would receive', async () => {
    const page = await get(`/${server.token}/`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Cellwatch</title>');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['set-cookie']).toBeUndefined();
    // The client folds `%2e%2e` away, leaving the token's path: refused. (hardening.test.ts sends raw paths.)
    expect((await get(`/${server.token}/%2e%2e/secret.txt`)).status).toBe(401);
    // Without its slash, relative URLs would leave the token's path: sent to it.
    expect(await get(`/${server.token}`)).toMatchObject({ status: 308, headers: { location: `/${server.token}/` } });
  });

  it.each(['evil.example:80', `attacker.test:${0}`, 'localhost.evil.com'])('refuses the foreign Host header %s (DNS rebinding)', async (host) => {
    const response = await get(`/${server.token}/`, { host });
    expect(response.status).toBe(421);
    expect(response.body).toContain('unexpected Host header');
  });

  it('accepts localhost as the Host of a loopback server', async () => {
    expect((await get(`/${server.token}/`, { host: `localhost:${server.port}` })).status).toBe(200);
  });
});

describe('serve mode WebSocket', () => {
  it('refuses a connection without the token', async () => {
    await expect(connect()).rejects.toThrow('refused with 401');
    await expect(connect({ token: 'x'.repeat(server.token.length) })).rejects.toThrow('refused with 403');
  });

  it('refuses a connection from another origin, even with the token', async () => {
    await expect(connect({ token: server.token, origin: 'http://evil.example' })).rejects.toThrow('refused with 403');
  });

  it('refuses a foreign Host header', async () => {
    await expect(connect({ token: server.token, host: 'evil.example' })).rejects.toThrow('refused with 421');
  });

  it('carries calls and events of the contract, and refuses calls outside it', async () => {
    const ws = await connect({ token: server.token, origin: base });
    const nextMessage = inbox(ws);
    ws.send(JSON.stringify({ id: 1, method: 'getInfo', args: [] }));
    expect(await nextMessage()).toMatchObject({ id: 1, ok: true, result: { name: 'Cellwatch', transport: 'serve' } });

    ws.send(JSON.stringify({ id: 2, method: 'readFile', args: ['/etc/passwd'] }));
    expect(await nextMessage()).toEqual({ id: 2, ok: false, error: { name: 'DispatchError', message: 'unknown method "readFile": not in the contract' } });

    ws.send(JSON.stringify({ id: 3, method: 'addRoot', args: [{ path: '/' }] }));
    expect(await nextMessage()).toMatchObject({ id: 3, ok: false, error: { name: 'DispatchError', message: expect.stringMatching(/^addRoot: bad arguments/) } });

    ws.send('not json');
    expect(await nextMessage()).toMatchObject({ id: -1, ok: false });

    ws.send(JSON.stringify({ id: 4, method: 'addRoot', args: [tmp.path] }));
    const messages = [];
    for (let m = await nextMessage(); ; m = await nextMessage()) {
      messages.push(m);
      if ('id' in m && m.id === 4) break;
    }
    expect(messages.at(-1)).toMatchObject({ id: 4, ok: true });
    expect(messages).toContainEqual(expect.objectContaining({ event: 'rootsChanged' }));
    ws.close();
  });

  it('sends each reply and event as a binary frame of UTF-8 JSON, which the page decodes (Chromium takes a text frame of megabytes in one long task)', async () => {
    const ws = await connect({ token: server.token, origin: base });
    const frames: { binary: boolean; text: string }[] = [];
    ws.on('message', (data: Buffer, isBinary: boolean) => frames.push({ binary: isBinary, text: new TextDecoder('utf-8', { fatal: true }).decode(data) }));
    const root = join(tmp.path, 'runs · été');
    ws.send(JSON.stringify({ id: 1, method: 'addRoot', args: [root] }));
    await expect.poll(() => frames.some((f) => (JSON.parse(f.text) as { id?: number }).id === 1)).toBe(true);
    expect(frames.every((f) => f.binary)).toBe(true);
    expect(frames.map((f) => JSON.parse(f.text))).toContainEqual({ event: 'rootsChanged', payload: expect.arrayContaining([expect.objectContaining({ path: root })]) });
    ws.close();
  });
});
