import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, sep } from 'node:path';

/** The per-user config directory: XDG on Linux, the platform's usual place elsewhere. */
export function defaultConfigDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Cellwatch');
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Cellwatch');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'cellwatch');
}

/** The per-user data directory, where the demo writes its runs. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Cellwatch', 'data');
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'Cellwatch');
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'cellwatch');
}

export function defaultDemoRoot(): string {
  return join(defaultDataDir(), 'demo-runs');
}

/** The folder holding Cellwatch's package.json, found upward from a module's own folder. */
export function packageRoot(fromDir: string): string {
  let dir = fromDir;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fromDir}`);
    dir = parent;
  }
  return dir;
}

/** Where `npm run build` puts the renderer. */
export function builtRendererDir(fromDir: string): string {
  return join(packageRoot(fromDir), 'out', 'renderer');
}

/**
 * A file of the package that another process or a worker reads (the read worker's script, ffmpeg's font):
 * packaged, it is outside the asar archive, which only Electron's own fs can read.
 */
export function unpackedFile(fromDir: string, ...segments: string[]): string {
  const packed = join(packageRoot(fromDir), ...segments);
  const unpacked = packed.replace(`app.asar${sep}`, `app.asar.unpacked${sep}`);
  return existsSync(unpacked) ? unpacked : packed;
}
