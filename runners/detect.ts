import { join } from 'node:path';
import type { FormatName } from '../shared/model';
import type { CellFs } from './common/fs';
import { isObject, MAX_JSON_BYTES } from './common/json';
import { parseJson } from '../shared/json';
import { ADAPTERS } from './adapters';

const RUNNER_FORMATS: Record<string, FormatName> = {
  'coding-agent': 'coding-agent',
  'bigym-agent': 'bigym-agent',
  evopolicygym: 'evopolicygym',
};

/** The files whose contents say a folder is a cell. */
export const DETECT_FILES = ['run.json', 'config.json'] as const;

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = parseJson(text);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * The format a cell file's contents declare: run.json names its runner; a Harbor job's config.json names
 * the job (a trial's names the trial and is not a cell of its own). Null when it declares none.
 */
export function formatOf(file: (typeof DETECT_FILES)[number], text: string): FormatName | null {
  const value = parseObject(text);
  if (!value) return null;
  if (file === 'run.json') return typeof value.runner === 'string' ? (RUNNER_FORMATS[value.runner] ?? null) : null;
  return typeof value.job_name === 'string' && value.trial_name === undefined ? 'harbor-job' : null;
}

/**
 * Which run-directory format a directory holds, from its own files, or null when it is not a cell.
 * `files` are the names of the directory's files, so nothing is opened that is not there.
 */
export async function detectFormat(fs: CellFs, dir: string, files: ReadonlySet<string>): Promise<FormatName | null> {
  for (const file of DETECT_FILES) {
    if (!files.has(file)) continue;
    const read = await fs.read(join(dir, file), MAX_JSON_BYTES);
    const format = read && !read.truncated ? formatOf(file, read.text) : null;
    if (format) return format;
  }
  return null;
}

/** The cells that are files (rollout collections) among a folder's files; `known` cell paths are not opened again. */
export async function fileCellsIn(fs: CellFs, dir: string, files: ReadonlySet<string>, known: (path: string) => boolean = () => false): Promise<{ dir: string; format: FormatName }[]> {
  const found: { dir: string; format: FormatName }[] = [];
  for (const [format, adapter] of Object.entries(ADAPTERS) as [FormatName, (typeof ADAPTERS)[FormatName]][]) {
    for (const path of (await adapter.capabilities.fileCell?.cellsIn(fs, dir, files, known)) ?? []) found.push({ dir: path, format });
  }
  return found;
}

/** The cell that is a file which `path`, a file beside it, belongs to; null for any other file. */
export function fileCellOf(path: string): string | null {
  for (const adapter of Object.values(ADAPTERS)) {
    const owner = adapter.capabilities.fileCell?.ownerOf(path);
    if (owner) return owner;
  }
  return null;
}
