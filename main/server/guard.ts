import { timingSafeEqual } from 'node:crypto';
import { hostname, networkInterfaces } from 'node:os';
import type { IncomingMessage } from 'node:http';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('127.');
}

function hostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * The Host header values a request may carry. Anything else is a DNS-rebinding attempt or a proxy
 * we do not know, and is refused.
 */
export function allowedHosts(boundHost: string, port: number): Set<string> {
  const names = new Set<string>([boundHost]);
  if (isLoopback(boundHost)) for (const name of LOOPBACK) names.add(name);
  if (boundHost === '0.0.0.0' || boundHost === '::') {
    names.add(hostname());
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) names.add(address.address);
    }
  }
  return new Set([...names].map((name) => hostPort(name, port).toLowerCase()));
}

export function sameToken(given: string | null | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `path`: what the request asks for below the token (`/`, `/assets/x.js`, `/media/...`); `slash`: the token came without its slash. */
export type Verdict = { ok: true; path: string; slash: boolean } | { ok: false; status: number; reason: string };

/**
 * Host header, then the token, the first segment of the path (`/TOKEN/...`); for WebSocket upgrades also the
 * Origin. No cookie: cookies are not kept apart by port, so any other local server the browser visits
 * would receive one. A path is sent to this origin alone, and relative URLs (assets, media, the
 * WebSocket) keep it without the window knowing the token.
 */
export function checkRequest(req: IncomingMessage, opts: { hosts: Set<string>; token: string; upgrade: boolean }): Verdict {
  const host = (req.headers.host ?? '').toLowerCase();
  if (!opts.hosts.has(host)) return { ok: false, status: 421, reason: `unexpected Host header ${JSON.stringify(host)}` };
  if (opts.upgrade) {
    const origin = req.headers.origin;
    if (origin !== undefined && origin.toLowerCase() !== `http://${host}`) {
      return { ok: false, status: 403, reason: `WebSocket from another origin (${origin}) refused` };
    }
  }
  // Split as sent: URL parsing would take `//host/...` for another host and fold `%2e%2e` into `..`.
  const [, first = '', ...rest] = (req.url ?? '/').split(/[?#]/)[0]!.split('/');
  if (sameToken(first, opts.token)) return { ok: true, path: `/${rest.join('/')}`, slash: rest.length > 0 };
  // A segment as long as the token is taken for a token: a stale URL (the server was restarted) says so.
  const wrong = first.length === opts.token.length;
  return {
    ok: false,
    status: wrong ? 403 : 401,
    reason: wrong ? 'wrong token: this URL is from an earlier start; open the URL that `cellwatch serve` printed' : 'token required: open the URL that `cellwatch serve` printed',
  };
}
