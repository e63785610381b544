import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { ScorerPicks } from '../runners';
import { join } from 'node:path';
import type { StateFile } from './state-file';
import { type Problem, problem } from '../shared/model';

export interface Settings {
  roots: string[];
  /** Set once the user removes the demo root: the demo then no longer starts on its own. */
  demoDismissed?: boolean;
  /** The scorer picked for an Inspect log's outcomes, by cell id (the cell view's "outcome by"). */
  scorers?: Record<string, string>;
}

export interface LoadedSettings {
  settings: Settings;
  /** Set when the file exists but cannot be used; the file is then left untouched until the user saves. */
  problem?: Problem;
}

export function settingsFile(configDir: string): string {
  return join(configDir, 'settings.json');
}

function parse(text: string): Settings | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `not valid JSON (${(error as Error).message})`;
  }
  if (value === null || typeof value !== 'object') return 'expected a JSON object';
  const roots = (value as { roots?: unknown }).roots ?? [];
  if (!Array.isArray(roots) || roots.some((r) => typeof r !== 'string')) return '"roots" must be a list of paths';
  return { ...(value as object), roots: roots as string[] };
}

/** The scorers picked in the settings of `configDir`, whatever else the file holds; none where it cannot be read. */
export function scorerPicksIn(configDir: string): ScorerPicks {
  try {
    const value = (JSON.parse(readFileSync(settingsFile(configDir), 'utf8')) as { scorers?: unknown }).scorers;
    if (value === null || typeof value !== 'object') return {};
    return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}

export async function loadSettings(file: string): Promise<LoadedSettings> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { settings: { roots: [] } };
    return { settings: { roots: [] }, problem: problem(file, `cannot read settings: ${(error as Error).message}`) };
  }
  const parsed = parse(text);
  if (typeof parsed === 'string') {
    return {
      settings: { roots: [] },
      problem: problem(file, `settings ignored: ${parsed}. Fix or delete the file; adding a root rewrites it.`),
    };
  }
  return { settings: parsed };
}

/**
 * Saves what `change` makes of the settings as they are on disk now: another Cellwatch on the same config
 * folder may have added a root since this one read them. A file that cannot be used is replaced.
 */
export async function updateSettings(file: StateFile, change: (settings: Settings) => Settings): Promise<Settings> {
  let saved: Settings = { roots: [] };
  await file.update((text) => {
    const current = text === null ? { roots: [] } : parse(text);
    saved = change(typeof current === 'string' ? { roots: [] } : current);
    return `${JSON.stringify(saved, null, 2)}\n`;
  });
  return saved;
}
