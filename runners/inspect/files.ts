// Which files of a folder are Inspect logs, by their contents (formats.md section 6): a `.eval` zip
// holding Inspect's start record or header; a `.json` object that starts as Inspect writes one.
import { join } from 'node:path';
import type { CellFs } from '../common/fs';
import { firstMember, ZipBroken, zipDirectory } from './zip';

/** How a JSON log starts: its version, perhaps its status, then its eval. */
const JSON_LOG_HEAD = /^\s*\{\s*"version"\s*:\s*\d+\s*,\s*(?:"status"\s*:\s*"[a-z_]+"\s*,\s*)?"eval"\s*:\s*\{/;
const LOG_MEMBERS = new Set(['_journal/start.json', 'header.json']);

async function isEvalLog(fs: CellFs, path: string): Promise<boolean> {
  try {
    // Inspect writes its start record first: a large log is known without its central directory.
    if (LOG_MEMBERS.has((await firstMember(fs, path)) ?? '')) return true;
    const directory = await zipDirectory(fs, path);
    return [...LOG_MEMBERS].some((name) => directory.get(name) !== undefined);
  } catch (error) {
    if (error instanceof ZipBroken) return false;
    throw error;
  }
}

async function isJsonLog(fs: CellFs, path: string): Promise<boolean> {
  const head = await fs.readFrom(path, 0, 4096);
  return head !== null && JSON_LOG_HEAD.test(head.text);
}

/** The Inspect logs among a folder's files, as their paths; `known` paths are not opened again. */
export async function inspectLogsIn(fs: CellFs, dir: string, files: ReadonlySet<string>, known: (path: string) => boolean): Promise<string[]> {
  const found: string[] = [];
  for (const name of [...files].sort()) {
    const path = join(dir, name);
    const eval_ = name.endsWith('.eval');
    if (!eval_ && !name.endsWith('.json')) continue;
    if (known(path) || (eval_ ? await isEvalLog(fs, path) : await isJsonLog(fs, path))) found.push(path);
  }
  return found;
}
