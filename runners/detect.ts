import { join } from 'node:path';
import type { FormatName } from '../shared/model';
import type { CellFs } from './common/fs';
import { isObject, MAX_JSON_BYTES } from './common/json';

const RUNNER_FORMATS: Record<string, FormatName> = {
  'coding-agent': 'coding-agent',
  'bigym-agent': 'bigym-agent',
  evopolicygym: 'evopolicygym',
};

async function readObject(fs: CellFs, file: string): Promise<Record<string, unknown> | null> {
  const read = await fs.read(file, MAX_JSON_BYTES);
  if (!read || read.truncated) return null;
  try {
    const value: unknown = JSON.parse(read.text);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** A Harbor job's config.json names the job; a trial's names the trial and is not a cell of its own. */
function isHarborJobConfig(config: Record<string, unknown>): boolean {
  return typeof config.job_name === 'string' && config.trial_name === undefined;
}

/**
 * Which run-directory format a directory holds, from its own files, or null when it is not a cell.
 * `files` are the names of the directory's files, so nothing is opened that is not there.
 */
export async function detectFormat(fs: CellFs, dir: string, files: ReadonlySet<string>): Promise<FormatName | null> {
  if (files.has('run.json')) {
    const run = await readObject(fs, join(dir, 'run.json'));
    const format = typeof run?.runner === 'string' ? RUNNER_FORMATS[run.runner] : undefined;
    if (format) return format;
  }
  if (files.has('config.json')) {
    const config = await readObject(fs, join(dir, 'config.json'));
    if (config && isHarborJobConfig(config)) return 'harbor-job';
  }
  return null;
}
