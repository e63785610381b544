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

export function cookieName(port: number): string {
  return `cellwatch_${port}`;
}

function readCookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

export function sameToken(given: string | null | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export type Verdict = { ok: true; tokenInQuery: boolean } | { ok: false; status: number; reason: string };

/** Host header, then token (query or cookie); for WebSocket upgrades also the Origin. */
export function checkRequest(req: IncomingMessage, opts: { hosts: Set<string>; token: string; port: number; upgrade: boolean }): Verdict {
  const host = (req.headers.host ?? '').toLowerCase();
  if (!opts.hosts.has(host)) return { ok: false, status: 421, reason: `unexpected Host header ${JSON.stringify(host)}` };
  if (opts.upgrade) {
    const origin = req.headers.origin;
    if (origin !== undefined && origin.toLowerCase() !== `http://${host}`) {
      return { ok: false, status: 403, reason: `WebSocket from another origin (${origin}) refused` };
    }
  }
  const url = new URL(req.url ?? '/', 'http://local');
  const queryToken = url.searchParams.get('token');
  if (sameToken(queryToken, opts.token)) return { ok: true, tokenInQuery: true };
  if (sameToken(readCookie(req, cookieName(opts.port)), opts.token)) return { ok: true, tokenInQuery: false };
  return {
    ok: false,
    status: queryToken ? 403 : 401,
    reason: queryToken ? 'wrong token' : 'token required: open the URL that `cellwatch serve` printed',
  };
}
