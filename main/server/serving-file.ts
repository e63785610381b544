// The URL a `cellwatch serve` of this user serves, kept in the data folder while it runs: a second
// `npm start` finds the app already open and opens it again, rather than failing on the port.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { StateFile } from '../state-file';

const fileIn = (dataDir: string) => join(dataDir, 'serving.json');

/** Says the URL this process serves; only this user can read it (the URL holds the token). */
export function recordServing(dataDir: string, url: string): Promise<void> {
  return new StateFile(fileIn(dataDir), 0o600).write(JSON.stringify({ pid: process.pid, url }));
}

/** Takes the URL back when this process stops serving, unless another one has said its own since. */
export function forgetServing(dataDir: string): void {
  try {
    if ((JSON.parse(readFileSync(fileIn(dataDir), 'utf8')) as { pid?: number }).pid === process.pid) rmSync(fileIn(dataDir), { force: true });
  } catch {
    // none said
  }
}

/**
 * The URL of a server of this user on `host`:`port` that answers now, with its token (the page is asked
 * for: a file left by a server that died, or a port another program took, gives null).
 */
export async function runningServer(dataDir: string, host: string, port: number): Promise<string | null> {
  let url: string;
  try {
    url = (JSON.parse(readFileSync(fileIn(dataDir), 'utf8')) as { url: string }).url;
  } catch {
    return null;
  }
  const at = new URL(url);
  if (at.hostname !== host || Number(at.port) !== port) return null;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000), redirect: 'manual' });
    return response.ok ? url : null;
  } catch {
    return null;
  }
}
