import { join } from 'node:path';
import { problem, type FormatName, type Problem } from '../shared/model';
import type { CellFs } from './common/fs';
import { isObject, MAX_JSON_BYTES } from './common/json';
import { parseJson } from '../shared/json';
import { oneOf } from '../shared/counts';
import { ADAPTERS } from './adapters';

const RUNNER_FORMATS: Record<string, FormatName> = {
  'coding-agent': 'coding-agent',
  'bigym-agent': 'bigym-agent',
  evopolicygym: 'evopolicygym',
};

/**
 * What a cell is, in words, from each way one is found: a folder whose run.json names a runner, a Harbor
 * job's folder, a file a format reads as a cell.
 */
export function whatIsACell(): string {
  const files = Object.values(ADAPTERS).flatMap((adapter) => adapter.capabilities.fileCell?.what ?? []);
  return oneOf([`a folder with a run.json from ${oneOf(Object.keys(RUNNER_FORMATS))}`, 'a Harbor job folder', ...files]);
}

/** The files whose contents say a folder is a cell. */
export const DETECT_FILES = ['run.json', 'config.json'] as const;

/** A file's JSON object; null when it holds other JSON, and undefined when it holds no JSON at all. */
function parseObject(text: string): Record<string, unknown> | null | undefined {
  try {
    const value: unknown = parseJson(text);
    return isObject(value) ? value : null;
  } catch {
    return undefined;
  }
}

/**
 * The format a cell file's contents declare: run.json names its runner; a Harbor job's config.json names
 * the job (a trial's names the trial and is not a cell of its own). Null when it declares none, and
 * undefined when the file is no JSON.
 */
export function formatOf(file: (typeof DETECT_FILES)[number], text: string): FormatName | null | undefined {
  const value = parseObject(text);
  if (!value) return value;
  if (file === 'run.json') return typeof value.runner === 'string' ? (RUNNER_FORMATS[value.runner] ?? null) : null;
  return typeof value.job_name === 'string' && value.trial_name === undefined ? 'harbor-job' : null;
}

/** An empty file this recent is one its writer has opened and not yet written (the moment a run starts). */
const FRESH_MS = 10_000;

async function beingWritten(fs: CellFs, path: string, text: string): Promise<boolean> {
  if (text.trim() !== '') return false;
  const info = await fs.stat(path);
  return info !== null && Date.now() - info.mtimeMs < FRESH_MS;
}

/**
 * Which run-directory format a directory holds, from its own files, or null when it is not a cell.
 * `files` are the names of the directory's files, so nothing is opened that is not there. A run.json that
 * is no JSON, or too large to read, is a problem of `problems`: a run whose run.json was cut short (a disk
 * full as the runner started) would otherwise be missing from the list without a word. One just made and still
 * empty is not one yet: the change that ends its write looks again. (A config.json is any tool's: only a
 * Harbor job's says anything.)
 */
export async function detectFormat(fs: CellFs, dir: string, files: ReadonlySet<string>, problems: Problem[] = []): Promise<FormatName | null> {
  for (const file of DETECT_FILES) {
    if (!files.has(file)) continue;
    const path = join(dir, file);
    const read = await fs.read(path, MAX_JSON_BYTES);
    const format = read && !read.truncated ? formatOf(file, read.text) : undefined;
    if (format) return format;
    if (read && format === undefined && file === 'run.json' && !(await beingWritten(fs, path, read.text))) {
      problems.push(problem(path, read.truncated ? `over ${MAX_JSON_BYTES / (1 << 20)} MB: too large to read; the folder is not listed as a cell` : 'not valid JSON: the folder is not listed as a cell until it is'));
    }
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
