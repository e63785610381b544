import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { Backend } from '../shared/contract';
import type { AppInfo, CellSummary, Problem, RootStatus, Transport } from '../shared/model';
import { EventHub } from './events';
import { scanRoot, type ScanResult } from './scan';
import { loadSettings, saveSettings, settingsFile, type Settings } from './settings';
import { APP_VERSION } from './version';

export interface CoreOptions {
  configDir: string;
  transport: Transport;
  /** Roots given on the command line: shown for this start, never saved. */
  commandLineRoots?: string[];
  /** The window's native folder picker; absent in serve mode. */
  pickFolder?: () => Promise<string | null>;
}

/** The Node core: implements the contract as plain async functions and emits its events. */
export interface Core extends Backend {
  readonly events: EventHub;
}

interface RootEntry {
  path: string;
  source: RootStatus['source'];
  scan?: ScanResult;
}

/** A root the user typed: `~` is their home; a relative path would depend on where the core started. */
function absoluteRoot(path: string): string {
  const expanded = path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
  if (!isAbsolute(expanded)) throw new Error(`runs root must be an absolute path, not ${JSON.stringify(path)}`);
  return resolve(expanded);
}

export async function createCore(options: CoreOptions): Promise<Core> {
  const file = settingsFile(options.configDir);
  const loaded = await loadSettings(file);
  let settings: Settings = loaded.settings;
  // A settings file that could not be used stays a problem until a save replaces it.
  let settingsProblem: Problem | undefined = loaded.problem;
  const events = new EventHub();

  const roots = new Map<string, RootEntry>();
  for (const path of settings.roots) roots.set(resolve(path), { path: resolve(path), source: 'settings' });
  for (const path of options.commandLineRoots ?? []) {
    if (!roots.has(resolve(path))) roots.set(resolve(path), { path: resolve(path), source: 'command line' });
  }

  function status(entry: RootEntry): RootStatus {
    return {
      path: entry.path,
      source: entry.source,
      state: entry.scan?.state ?? 'scanning',
      cellCount: entry.scan?.cells.length ?? 0,
      problems: entry.scan?.problems ?? [],
    };
  }
  const statuses = () => [...roots.values()].map(status);

  async function rescan(entry: RootEntry): Promise<void> {
    entry.scan = await scanRoot(entry.path);
  }

  async function persist(): Promise<void> {
    const saved = [...roots.values()].filter((r) => r.source === 'settings').map((r) => r.path);
    settings = { ...settings, roots: saved };
    await saveSettings(file, settings);
    settingsProblem = undefined;
  }

  await Promise.all([...roots.values()].map(rescan));

  return {
    events,
    async getInfo(): Promise<AppInfo> {
      return {
        name: 'Cellwatch',
        version: APP_VERSION,
        transport: options.transport,
        canPickFolder: options.pickFolder !== undefined,
        settingsFile: file,
        problems: settingsProblem ? [settingsProblem] : [],
      };
    },
    async listRoots() {
      return statuses();
    },
    async addRoot(path) {
      const absolute = absoluteRoot(path);
      const existing = roots.get(absolute);
      const entry: RootEntry = { path: absolute, source: 'settings', scan: existing?.scan };
      roots.set(absolute, entry);
      await persist();
      await rescan(entry);
      events.emit('rootsChanged', statuses());
      return status(entry);
    },
    async removeRoot(path) {
      const absolute = resolve(path);
      const entry = roots.get(absolute);
      if (!entry) throw new Error(`${absolute} is not a runs root`);
      roots.delete(absolute);
      if (entry.source === 'settings') await persist();
      events.emit('rootsChanged', statuses());
    },
    async listCells(root) {
      const chosen = root === undefined ? [...roots.values()] : [roots.get(resolve(root))].filter((r) => r !== undefined);
      if (root !== undefined && chosen.length === 0) throw new Error(`${resolve(root)} is not a runs root`);
      return chosen.flatMap((r): CellSummary[] => r.scan?.cells ?? []);
    },
    async pickFolder() {
      if (!options.pickFolder) throw new Error('no folder picker in the browser: type the runs root path instead');
      return options.pickFolder();
    },
  };
}
