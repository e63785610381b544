// What a run directory, a local process or a malformed request can send serve mode: none of it may crash
// the server, leak a file from outside the cell or run active content in the app's origin.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { restoreEnv, tempDir, writeTree } from '../../runners/testing';
import { createCore, type Core } from '../core';
import { openBrowser } from '../open-browser';
import { startServer, type RunningServer } from './server';

let tmp: ReturnType<typeof tempDir>;
let core: Core;
let server: RunningServer;
const cell = () => join(tmp.path, 'runs', 'std_sdk_m_bare_default');
const readlinkSafe = (path: string) => {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
};
const mediaPath = (file: string) => `/${server.token}/media/${encodeURIComponent(`local:${cell()}`)}/${file}`;

function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    // The path goes out as written: the server must cope with whatever a client sends.
    const req = request({ host: '127.0.0.1', port: server.port, path, headers: { host: `127.0.0.1:${server.port}`, ...headers }, timeout: 5000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${path} timed out`)));
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  tmp = tempDir();
  writeTree(join(tmp.path, 'renderer'), { 'index.html': '<!doctype html><title>Cellwatch</title>' });
  writeTree(cell(), {
    'run.json': { runner: 'coding-agent', run: 'std_sdk_m_bare_default', protocol: { episodes: [0] } },
    'episodes/0000/frames/000001.png': 'png bytes',
    'evil.html': '<script>alert(1)</script>',
    'evil.js': 'alert(1)',
    'evil.svg': '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
  });
  writeFileSync(join(tmp.path, 'secret.txt'), 'outside the cell');
  symlinkSync('/etc/passwd', join(cell(), 'leak.png'));
  symlinkSync(join(tmp.path, 'secret.txt'), join(cell(), 'secret.txt'));
  symlinkSync('/proc/self/mem', join(cell(), 'mem.png'));
  execFileSync('mkfifo', [join(cell(), 'fifo.png')]);
  mkdirSync(join(cell(), 'folder.png'));
  core = await createCore({ configDir: join(tmp.path, 'config'), transport: 'serve', commandLineRoots: [join(tmp.path, 'runs')], rescan: false, nvidiaSmi: false });
  await core.scanned();
  server = await startServer({ host: '127.0.0.1', port: 0, rendererDir: join(tmp.path, 'renderer'), core });
});
afterAll(async () => {
  await server?.close();
  await core?.close();
  tmp.remove();
});

describe('serve mode media', () => {
  it('serves a frame as an image, sandboxed and unsniffable', async () => {
    const res = await get(mediaPath('episodes/0000/frames/000001.png'));
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('png bytes');
    expect(res.headers).toMatchObject({ 'content-type': 'image/png', 'x-content-type-options': 'nosniff', 'content-security-policy': expect.stringMatching(/^sandbox allow-same-origin; default-src 'none';/) });
  });

  it.each(['leak.png', 'secret.txt', 'mem.png'])('refuses %s, a link that leads out of the cell', async (file) => {
    expect((await get(mediaPath(file))).status).toBe(404);
  });

  it.each(['evil.html', 'evil.js', 'evil.svg'])('never serves %s: only media types come from a run directory', async (file) => {
    const res = await get(mediaPath(file));
    expect(res.status).toBe(404);
    expect(res.body.toString()).not.toContain('alert');
  });

  it('answers at once for a FIFO or a folder named like a frame, and keeps serving', async () => {
    expect((await get(mediaPath('fifo.png'))).status).toBe(404);
    expect((await get(mediaPath('folder.png'))).status).toBe(404);
    expect((await get(mediaPath('episodes/0000/frames/000001.png'))).status).toBe(200);
  });

  it('lets go of a frame whose client went mid-file', async () => {
    const frame = join(cell(), 'episodes', '0000', 'frames', 'large.png');
    writeFileSync(frame, Buffer.alloc(32 * 1024 * 1024));
    const openOn = () => readdirSync('/proc/self/fd').filter((fd) => readlinkSafe(`/proc/self/fd/${fd}`) === frame).length;
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: mediaPath('episodes/0000/frames/large.png'), headers: { host: `127.0.0.1:${server.port}` } }, (res) => {
        res.once('data', () => (req.destroy(), resolve()));
      });
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      req.end();
    });
    await expect.poll(openOn).toBe(0);
  });

  it('survives a frame it cannot read (mode 000, read as an unprivileged user)', async () => {
    const frame = join(cell(), 'episodes', '0000', 'frames', 'locked.png');
    writeFileSync(frame, 'x');
    chmodSync(frame, 0);
    const res = await get(mediaPath('episodes/0000/frames/locked.png'));
    // Root reads it anyway; anyone else gets a refusal. Either way the server goes on.
    expect([200, 404]).toContain(res.status);
    expect((await get(`/${server.token}/`)).status).toBe(200);
  });
});

describe('serve mode requests', () => {
  it('redirects only to the token\'s own path, never off-site', async () => {
    expect((await get(`//evil.com/${server.token}`)).status).toBe(401);
    expect((await get(`/${server.token}//evil.com/x`)).status).toBe(404);
    const res = await get(`/${server.token}?next=//evil.com/x`);
    expect(res.status).toBe(308);
    expect(res.headers.location).toBe(`/${server.token}/`);
  });

  it.each(['%2e%2e/secret.txt', '../secret.txt', '..%2fsecret.txt'])('serves nothing above the renderer for %s below the token', async (path) => {
    const res = await get(`/${server.token}/${path}`);
    expect(res.status).toBe(404);
    expect(res.body.toString()).not.toContain('outside the cell');
  });

  it('drops a client that sends a frame over the limit or invalid UTF-8, and serves the others', async () => {
    const open = () =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${server.port}/${server.token}/ws`, { origin: `http://127.0.0.1:${server.port}` });
        ws.once('open', () => resolve(ws));
        ws.on('error', reject);
      });
    const closed = (ws: WebSocket) => new Promise((resolve) => ws.once('close', resolve));
    const big = await open();
    big.send(Buffer.alloc(2 << 20, 'a'));
    await closed(big);
    const bad = await open();
    bad.send(Buffer.from([0xff, 0xfe, 0xfd]), { binary: false });
    await closed(bad);
    const good = await open();
    const reply = new Promise((resolve) => good.once('message', (data) => resolve(JSON.parse(String(data)))));
    good.send(JSON.stringify({ id: 1, method: 'getInfo', args: [] }));
    expect(await reply).toMatchObject({ id: 1, ok: true });
    good.close();
  });
});

describe('serve --open', () => {
  it('hands the browser a page only this user can read, never the token on a command line, and removes it even when this process cannot', async () => {
    const bin = join(tmp.path, 'bin');
    const args = join(tmp.path, 'opener-args');
    mkdirSync(bin);
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\necho "$@" > ${args}\n`, { mode: 0o755 });
    const saved = { ...process.env };
    Object.assign(process.env, { PATH: `${bin}:${process.env.PATH}`, DISPLAY: ':0' });
    // This process's timers never fire here, as a second start's would not: it exits at once.
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      expect(openBrowser(server.url, 3000)).toBe(true);
      await expect.poll(() => { try { return readFileSync(args, 'utf8'); } catch { return ''; } }).toMatch(/^file:\/\//);
      const opened = readFileSync(args, 'utf8').trim();
      expect(opened).not.toContain(server.token);
      const page = new URL(opened).pathname;
      expect(readFileSync(page, 'utf8')).toContain(server.url);
      expect((execFileSync('stat', ['-c', '%a', page], { encoding: 'utf8' })).trim()).toBe('600');
      await expect.poll(() => existsSync(dirname(page))).toBe(false);
    } finally {
      vi.useRealTimers();
      restoreEnv(saved);
    }
  });
});
