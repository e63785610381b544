import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../runners/testing';
import { freePort } from '../ssh/testing';

const CLI = join(import.meta.dirname, '..', '..', 'out', 'cli.mjs');
let tmp: ReturnType<typeof tempDir>;
const started: ChildProcess[] = [];
beforeEach(() => (tmp = tempDir()));
afterEach(async () => {
  await Promise.all(started.splice(0).map((child) => (child.exitCode === null && child.signalCode === null ? new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGKILL'))) : undefined)));
  tmp.remove();
});

/** `cellwatch serve` on `port` with this test's own folders; resolves with its first line of output. */
function serve(port: number): { child: ChildProcess; line: Promise<string>; exit: Promise<number | null> } {
  const env = { ...process.env, XDG_CONFIG_HOME: join(tmp.path, 'config'), XDG_DATA_HOME: join(tmp.path, 'data') };
  const child = spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--no-demo'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  const line = new Promise<string>((resolve) => createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', resolve));
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, line, exit };
}

describe('cellwatch serve, started again while it runs', () => {
  it('says the running one and its URL, and stops; once that one stops, a start serves again', async () => {
    const port = await freePort();
    const first = serve(port);
    const url = /^Cellwatch serving (\S+)$/.exec(await first.line)?.[1] as string;
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/[\\w-]{32}/$`));
    const second = serve(port);
    expect(await second.line).toBe(`Cellwatch is already serving ${url}`);
    expect(await second.exit).toBe(0);
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
    expect(existsSync(join(tmp.path, 'data', 'cellwatch', 'serving.json'))).toBe(false);
    // A new server, a new token.
    const third = await serve(port).line;
    expect(third).toMatch(new RegExp(`^Cellwatch serving http://127\\.0\\.0\\.1:${port}/[\\w-]{32}/$`));
    expect(third).not.toBe(`Cellwatch serving ${url}`);
  });

  it('believes no URL that does not answer: a file left by a server that died is passed over', async () => {
    const port = await freePort();
    mkdirSync(join(tmp.path, 'data', 'cellwatch'), { recursive: true });
    writeFileSync(join(tmp.path, 'data', 'cellwatch', 'serving.json'), JSON.stringify({ pid: 1, url: `http://127.0.0.1:${port}/${'x'.repeat(32)}/` }));
    expect(await serve(port).line).toMatch(new RegExp(`^Cellwatch serving http://127\\.0\\.0\\.1:${port}/[\\w-]{32}/$`));
  });
});
