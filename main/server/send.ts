import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';

/**
 * Streams a regular file as the response. Opened without blocking (a FIFO would wait for a writer) and
 * checked to be a regular file; a read that fails (permissions, /proc files, a vanished file) ends this
 * response only, never the server.
 */
export async function sendFile(res: ServerResponse, file: string, headers: Record<string, string>, headOnly: boolean): Promise<boolean> {
  const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)).catch(() => null);
  if (!handle) return false;
  const info = await handle.stat().catch(() => null);
  if (!info?.isFile()) {
    await handle.close();
    return false;
  }
  res.writeHead(200, { ...headers, 'content-length': String(info.size) });
  if (headOnly) {
    await handle.close();
    res.end();
    return true;
  }
  // pipeline, not pipe: a client that goes mid-file (a page closed) ends the read too. The stream closes
  // the handle itself, after its last read: closed from here, its number could be reused under that read.
  pipeline(handle.createReadStream(), res, () => undefined);
  return true;
}
