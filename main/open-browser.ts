import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

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

/** Opens the URL in a browser; false when this machine has none to open. */
export function openBrowser(url: string): boolean {
  const opener = browserOpener();
  if (!opener) return false;
  const [command, ...args] = opener;
  spawn(command, [...args, url], { stdio: 'ignore', detached: true }).on('error', () => undefined).unref();
  return true;
}
