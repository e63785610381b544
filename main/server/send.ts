import { close, constants, createReadStream, fstat, open, type Stats } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import { promisify } from 'node:util';

const openFd = promisify(open);
const statFd = promisify(fstat) as (fd: number) => Promise<Stats>;
const closeFd = (fd: number) => close(fd, () => undefined);

/**
 * Streams a regular file as the response. Opened without blocking (a FIFO would wait for a writer) and
 * checked to be a regular file; a read that fails (permissions, /proc files, a vanished file) ends this
 * response only, never the server. A plain descriptor, not a FileHandle: Node 26 ends the whole process
 * when a FileHandle is left to the garbage collector, and a stream over one missed closing it where the
 * client had gone first.
 */
export async function sendFile(res: ServerResponse, file: string, headers: Record<string, string>, headOnly: boolean): Promise<boolean> {
  const fd = await openFd(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)).catch(() => null);
  if (fd === null) return false;
  const info = await statFd(fd).catch(() => null);
  if (!info?.isFile() || res.destroyed) {
    closeFd(fd);
    return info?.isFile() === true;
  }
  res.writeHead(200, { ...headers, 'content-length': String(info.size) });
  if (headOnly) {
    closeFd(fd);
    res.end();
    return true;
  }
  // pipeline, not pipe: a client that goes mid-file (a page closed) ends the read too. The stream closes
  // the descriptor itself, after its last read: closed from here, its number could be reused under that read.
  pipeline(createReadStream('', { fd, autoClose: true }), res, () => undefined);
  return true;
}
