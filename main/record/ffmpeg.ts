import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** ffmpeg: CELLWATCH_FFMPEG when set, else the system's on PATH, else the one bundled from the npm registry. */
export function findFfmpeg(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CELLWATCH_FFMPEG) {
    if (executable(env.CELLWATCH_FFMPEG)) return env.CELLWATCH_FFMPEG;
    throw new Error(`ffmpeg not found at ${env.CELLWATCH_FFMPEG} (CELLWATCH_FFMPEG)`);
  }
  const name = process.platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg';
  for (const dir of (env.PATH ?? '').split(delimiter)) if (dir && executable(join(dir, name))) return join(dir, name);
  try {
    const bundled = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
    if (executable(bundled)) return bundled;
  } catch {
    // not installed for this platform: fall through to the message
  }
  throw new Error('ffmpeg not found: install it (apt install ffmpeg, brew install ffmpeg) or set CELLWATCH_FFMPEG to its path');
}
