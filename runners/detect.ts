import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FormatName } from '../shared/model';

const RUNNER_FORMATS: Record<string, FormatName> = {
  'coding-agent': 'coding-agent',
  'bigym-agent': 'bigym-agent',
  evopolicygym: 'evopolicygym',
};

async function readJsonObject(file: string): Promise<Record<string, unknown> | null> {
  try {
    const value: unknown = JSON.parse(await readFile(file, 'utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Which run-directory format a directory holds, from its own files, or null when it is not a cell.
 * `files` are the names of the directory's entries, so no file is opened that is not there.
 */
export async function detectFormat(dir: string, files: ReadonlySet<string>): Promise<FormatName | null> {
  if (files.has('run.json')) {
    const run = await readJsonObject(join(dir, 'run.json'));
    const format = typeof run?.runner === 'string' ? RUNNER_FORMATS[run.runner] : undefined;
    if (format) return format;
  }
  if (files.has('config.json')) {
    const config = await readJsonObject(join(dir, 'config.json'));
    if (config && typeof config.job_name === 'string') return 'harbor-job';
  }
  return null;
}
