// Set up before every unit test file: after its tests, nothing they opened may still be open. A core, an
// sshd, a server or a watcher a test started and never closed fails the file, naming what was left; so
// does a temporary folder of Cellwatch's own (an SSH master's socket folder, a page handed a browser)
// left behind: each file gets a temporary folder of its own, removed after it.
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/** What a test leaves open when it forgets to close what it started, and what that usually is. */
const KINDS: Record<string, string> = {
  FSEventWrap: 'a file watcher (a core or a cell watch not closed)',
  ProcessWrap: 'a child process (an sshd, a sampler, a run not stopped)',
  TCPServerWrap: 'a listening server',
  TCPSocketWrap: 'a TCP connection (an SSH host not closed)',
  StatWatcher: 'a polling file watcher',
};

const counts = () => {
  const found = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) if (kind in KINDS) found.set(kind, (found.get(kind) ?? 0) + 1);
  return found;
};

/** Waits while `left()` finds something, 10 s at most: closing and removing end a moment later on a busy machine. */
async function settle(left: () => unknown[]): Promise<void> {
  for (let waited = 0; left().length && waited < 10_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
}

let before = new Map<string, number>();
beforeAll(() => {
  before = counts();
});

afterAll(async () => {
  const left = () => [...counts()].filter(([kind, n]) => n > (before.get(kind) ?? 0));
  // Closing ends some of them a moment later (a child's exit, a socket's close).
  await settle(left);
  const open = left();
  if (open.length) throw new Error(`left open after this file's tests: ${open.map(([kind, n]) => `${n - (before.get(kind) ?? 0)} ${kind}, ${KINDS[kind]}`).join('; ')}`);
});

/** Names Cellwatch and its tests give their temporary folders; tools the tests run (krb5, jiti) use others. */
const OURS = /^(cellwatch-|cw-)/;
// Short: an SSH master's socket lies two folders below it, and a socket's path is at most 107 bytes.
const outer = process.env.TMPDIR;
const temporary = mkdtempSync(join(tmpdir(), 'cwt-'));
// As /tmp: a test runs commands as another user (nobody), who writes here too.
chmodSync(temporary, 0o1777);
process.env.TMPDIR = temporary;

afterAll(async () => {
  const left = () => readdirSync(temporary).filter((name) => OURS.test(name));
  // Removing is asynchronous in places (a connection's close).
  await settle(left);
  const names = left();
  rmSync(temporary, { recursive: true, force: true });
  // Files share a process (vitest.config.ts): the next one makes its folder where this one did.
  if (outer === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = outer;
  if (names.length) throw new Error(`left in the temporary folder after this file's tests: ${names.join(', ')}`);
});
