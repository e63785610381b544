// Set up before every unit test file: after its tests, nothing they opened may still be open. A core, an
// sshd, a server or a watcher a test started and never closed fails the file, naming what was left.
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

let before = new Map<string, number>();
beforeAll(() => {
  before = counts();
});

afterAll(async () => {
  const left = () => [...counts()].filter(([kind, n]) => n > (before.get(kind) ?? 0));
  // Closing ends some of them a moment later (a child's exit, a socket's close): seconds on a busy machine.
  for (let waited = 0; left().length && waited < 10_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  const open = left();
  if (open.length) throw new Error(`left open after this file's tests: ${open.map(([kind, n]) => `${n - (before.get(kind) ?? 0)} ${kind}, ${KINDS[kind]}`).join('; ')}`);
});
