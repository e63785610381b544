// The settings file as the roots keep it: what it said at start (and whether it could be used), and each
// change saved merged with what is on disk now (another Cellwatch may share the folder).
import type { Problem } from '../../shared/model';
import { settingsFile, updateSettings, type Settings } from '../settings';
import { StateFile } from '../state-file';
import { rootAddress } from './address';

export class SavedSettings {
  readonly file: string;
  settings: Settings = { roots: [] };
  /** A settings file that could not be used stays a problem until a save replaces it. */
  problem: Problem | undefined;
  private readonly writer: StateFile;

  constructor(configDir: string) {
    this.file = settingsFile(configDir);
    this.writer = new StateFile(this.file);
  }

  loaded(settings: Settings, problem: Problem | undefined): void {
    this.settings = settings;
    this.problem = problem;
  }

  /** Saves the scorer picked for a cell's outcomes (null: none, its first); the picks as saved. */
  async pickScorer(id: string, scorer: string | null): Promise<Record<string, string>> {
    const saved = await this.change((s) => {
      const { [id]: _was, ...others } = s.scorers ?? {};
      return { ...s, scorers: scorer === null ? others : { ...others, [id]: scorer } };
    });
    return saved.scorers ?? {};
  }

  /** Saves a root the user added. */
  addRoot(address: string): Promise<Settings> {
    return this.change((s) => ({ ...s, roots: [...new Set([...s.roots, address])] }));
  }

  /** Takes a root the user removed out of the saved ones; the demo's is dismissed for good. */
  removeRoot(address: string, demo: boolean): Promise<Settings> {
    return this.change((s) => ({ ...s, roots: s.roots.filter((r) => rootAddress(r) !== address), ...(demo ? { demoDismissed: true } : {}) }));
  }

  /** Saves what `change` makes of the settings on disk; the settings as saved. */
  private async change(change: (settings: Settings) => Settings): Promise<Settings> {
    this.settings = await updateSettings(this.writer, change);
    this.problem = undefined;
    return this.settings;
  }
}
