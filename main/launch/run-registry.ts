// The registry of the runs this app launched (launched.json in the config folder): read once, saved merged
// with what another Cellwatch on the same folder (the CLI beside serve) saved meanwhile.
import { readFile } from 'node:fs/promises';
import { append } from '../../shared/arrays';
import { StateFile } from '../state-file';
import type { LaunchedRun } from './place';
import { LOCAL } from '../../shared/address';

/** The registry's runs; none when there is no file or it is not a list. */
function parseRuns(text: string | null): LaunchedRun[] {
  try {
    const saved = JSON.parse(text ?? '[]') as unknown;
    // Runs saved by an older Cellwatch have no id (one made of what they have, the same at each read), no
    // start time and no target: they ran here.
    return Array.isArray(saved)
      ? (saved as Partial<LaunchedRun>[]).map((r) => ({ ...r, id: r.id ?? `saved-${r.pid}-${r.startedAt}`, pidStart: r.pidStart ?? null, target: r.target ?? LOCAL, host: r.host ?? LOCAL, job: r.job ?? null }) as LaunchedRun)
      : [];
  } catch {
    return [];
  }
}

export class RunRegistry {
  /** Every run recorded, in launch order; filled by `load`. */
  readonly runs: LaunchedRun[] = [];
  private loaded = false;
  private readonly file: StateFile;

  constructor(readonly path: string) {
    this.file = new StateFile(path);
  }

  async load(): Promise<void> {
    if (this.loaded) return;
    this.loaded = true;
    append(this.runs, parseRuns(await readFile(this.path, 'utf8').catch(() => null)));
  }

  /**
   * Saves the registry merged with the file as it is now: runs another Cellwatch on this config folder
   * launched meanwhile are kept, and known here from then on. A run is never removed.
   */
  save(): Promise<void> {
    return this.file.update((text) => {
      const mine = new Set(this.runs.map((r) => r.id));
      for (const run of parseRuns(text)) if (!mine.has(run.id)) this.runs.push(run);
      return JSON.stringify(this.runs, null, 1);
    });
  }
}
