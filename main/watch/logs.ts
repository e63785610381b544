import type { LogChunk, LogFile } from '../../shared/contract';
import type { CellSummary } from '../../shared/model';
import type { ContextOf } from '../place/context';
import { cellFolder } from '../../runners';

/** The most of a log one read returns, and what a first read shows of a long one (its end). */
const CHUNK_BYTES = 1024 * 1024;

/**
 * A cell's text log from byte `from` (its last megabyte when null), whole lines only, over whatever
 * reaches the cell (local files or SFTP). A log that shrank is read again from its start.
 */
export async function readLog(cell: CellSummary, contextOf: ContextOf, file: LogFile, from: number | null): Promise<LogChunk | null> {
  const fs = contextOf(cell).read().fs;
  // A cell that is a file (a collection a launch made) has its run's logs in its folder.
  const path = `${cellFolder(cell.path, cell.format)}/${file}`;
  const info = await fs.stat(path);
  if (!info || info.kind !== 'file') return null;
  const shrank = from !== null && info.size < from;
  let start = from === null || shrank ? Math.max(0, info.size - CHUNK_BYTES) : from;
  const read = await fs.readFrom(path, start, CHUNK_BYTES);
  if (!read) return null;
  let text = read.text;
  // A first read that starts mid-file skips to the first whole line.
  if (start > 0 && (from === null || shrank)) {
    const newline = text.indexOf('\n');
    start += newline < 0 ? Buffer.byteLength(text) : Buffer.byteLength(text.slice(0, newline + 1));
    text = newline < 0 ? '' : text.slice(newline + 1);
  }
  const end = text.lastIndexOf('\n');
  const whole = end < 0 ? '' : text.slice(0, end + 1);
  return { text: whole, offset: start + Buffer.byteLength(whole), restarted: from === null ? start > 0 : shrank };
}
