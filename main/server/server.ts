import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { EVENTS, MAX_CALL_BYTES, type WireCall, type WireEvent, type WireReply } from '../../shared/contract';
import type { Core } from '../core';
import { createDispatcher } from '../dispatcher';
import { CONTENT_SECURITY_POLICY, mimeOf, resolveStatic } from '../static';
import { isMediaPath, mediaAnswer } from '../media';
import { sendFile } from './send';
import { allowedHosts, checkRequest } from './guard';

export interface ServeOptions {
  host: string;
  port: number;
  /** The built renderer (index.html and its assets). */
  rendererDir: string;
  core: Core;
}

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const WS_PATH = '/ws';

function refuse(res: ServerResponse, status: number, reason: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`${status}: ${reason}\n`);
}

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason.replace(/[\r\n]/g, ' ')}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

function parseCall(data: string): WireCall | null {
  try {
    const message = JSON.parse(data) as Partial<WireCall>;
    if (typeof message.id === 'number' && Array.isArray(message.args)) return message as WireCall;
  } catch {
    // fall through: a message that is not a call gets a reply with id -1
  }
  return null;
}

function serveConnection(ws: WebSocket, core: Core): void {
  // A frame over the size limit or with invalid UTF-8 is an error of this socket: drop this client only.
  ws.on('error', () => ws.terminate());
  const client = core.client();
  const dispatcher = createDispatcher(client);
  // As binary frames of UTF-8: Chromium takes a text frame of 2 MB (a large cell's detail) in a main-thread task
  // of 130-250 ms, the same bytes as binary, decoded and parsed, in 65 ms.
  const send = (message: WireReply | WireEvent) => {
    if (ws.readyState === ws.OPEN) ws.send(Buffer.from(JSON.stringify(message)));
  };
  const unsubscribes = EVENTS.map((event) => dispatcher.on(event, (payload) => send({ event, payload })));
  ws.on('close', () => {
    unsubscribes.forEach((off) => off());
    void client.dispose();
  });
  ws.on('message', (data) => {
    const call = parseCall(String(data));
    if (!call) {
      send({ id: -1, ok: false, error: { name: 'DispatchError', message: 'malformed message: expected {"id", "method", "args"}' } });
      return;
    }
    void dispatcher.reply(call.method, call.args).then((reply) => send({ id: call.id, ...reply }));
  });
}

/** Serve mode: the built renderer over HTTP and the contract over a WebSocket, behind a per-start token. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const token = randomBytes(24).toString('base64url');
  let hosts = new Set<string>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const verdict = checkRequest(req, { hosts, token, upgrade: false });
    if (!verdict.ok) return refuse(res, verdict.status, verdict.reason);
    // `/TOKEN` without its slash: relative URLs need it.
    if (!verdict.slash) return void res.writeHead(308, { location: `/${token}/`, 'cache-control': 'no-store' }).end();
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'method not allowed');
    const head = req.method === 'HEAD';
    const pathname = verdict.path;
    if (isMediaPath(pathname)) {
      const answer = await mediaAnswer(options.core.media, pathname);
      if (!answer) return refuse(res, 404, `no such media ${pathname}`);
      if ('bytes' in answer.media) {
        res.writeHead(200, answer.headers);
        return void res.end(head ? undefined : answer.media.bytes);
      }
      if (!(await sendFile(res, answer.media.file, answer.headers, head))) refuse(res, 404, `no such media ${pathname}`);
      return;
    }
    const file = await resolveStatic(options.rendererDir, pathname);
    const headers = {
      'content-type': file ? mimeOf(file) : '',
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': file?.endsWith('.html') ? 'no-store' : 'max-age=3600',
    };
    if (!file || !(await sendFile(res, file, headers, head))) {
      const built = await resolveStatic(options.rendererDir, '/');
      return built ? refuse(res, 404, `no such file ${pathname}`) : refuse(res, 503, `renderer not built in ${options.rendererDir}: run npm run build`);
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) refuse(res, 500, (error as Error).message);
      else res.destroy();
    });
  });
  // A malformed request or a socket that errors ends that connection only.
  server.on('clientError', (_error, socket) => socket.destroy());
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CALL_BYTES });
  wss.on('error', () => undefined);
  wss.on('connection', (ws) => serveConnection(ws, options.core));

  server.on('upgrade', (req, socket, head) => {
    const verdict = checkRequest(req, { hosts, token, upgrade: true });
    if (!verdict.ok) return refuseUpgrade(socket, verdict.status, verdict.reason);
    if (verdict.path !== WS_PATH) return refuseUpgrade(socket, 404, 'Not Found');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  await new Promise<void>((resolveListen, reject) => {
    server.on('error', reject);
    server.listen(options.port, options.host, () => resolveListen());
  });
  const port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(options.host, port);
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;

  return {
    url: `http://${shownHost}:${port}/${token}/`,
    host: options.host,
    port,
    token,
    close: () =>
      new Promise<void>((resolveClose) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}
