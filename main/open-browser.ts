import { spawn } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** The command that opens a URL in the user's browser here, or null when there is none. */
export function browserOpener(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): [string, ...string[]] | null {
  if (platform === 'darwin') return ['open'];
  if (platform === 'win32') return ['cmd', '/c', 'start', '""'];
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return null;
  return onPath('xdg-open') ? ['xdg-open'] : null;
}

/** How long the page that carries the token stays on the disk: long enough for a browser to start. */
const LAUNCH_PAGE_MS = 60_000;

/**
 * Removes the folder after `ms` in a process of its own: this one may be gone by then (a second start exits
 * at once, having handed the browser the page of the server already running).
 */
function removeLater(dir: string, ms: number): void {
  const script = `setTimeout(() => require('node:fs').rmSync(process.argv[1], { recursive: true, force: true }), ${ms})`;
  spawn(process.execPath, ['-e', script, dir], { stdio: 'ignore', detached: true }).on('error', () => undefined).unref();
}

/**
 * Opens the URL in a browser; false when this machine has none to open. The URL carries the token, and a
 * command line can be read by every local user (`ps`), so the browser is handed a file instead: a page
 * only this user can read, which sends it on to the URL, removed `pageMs` later.
 */
export function openBrowser(url: string, pageMs = LAUNCH_PAGE_MS): boolean {
  const opener = browserOpener();
  if (!opener) return false;
  const dir = mkdtempSync(join(tmpdir(), 'cellwatch-open-'));
  chmodSync(dir, 0o700);
  const page = join(dir, 'open.html');
  const escaped = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  writeFileSync(page, `<!doctype html><meta http-equiv="refresh" content="0;url=${escaped}"><title>Cellwatch</title>\n`, { mode: 0o600 });
  removeLater(dir, pageMs);
  const [command, ...args] = opener;
  spawn(command, [...args, pathToFileURL(page).href], { stdio: 'ignore', detached: true }).on('error', () => undefined).unref();
  return true;
}
