// Where the runs roots come from at start: the settings file, the hosts files, the command line.
import { problem, type Problem, type RootLimit, type RootStatus } from '../../shared/model';
import { loadSettings, type Settings } from '../settings';
import { readHostsFiles } from './hosts-file';
import { rootAddress } from './address';
import type { IndexOptions } from './index-options';

export interface RootsOptions {
  configDir: string;
  /** Roots given on the command line: shown for this start only, never saved. */
  commandLineRoots?: string[];
  /** Only the command line's roots: not the saved ones, nor the hosts files'. */
  onlyCommandLineRoots?: boolean;
  /** Where the built-in demo runs, live, when no runs root is configured; absent: no demo. */
  demoRoot?: string;
  /** Rescan roots on SSH hosts every few seconds (default true). */
  rescan?: boolean;
  /** How local roots are watched and swept (tests shorten the sweep or turn the watcher off). */
  index?: IndexOptions;
}

export interface RootSources {
  settings: Settings;
  /** A settings file that could not be used: it stays a problem until a save replaces it. */
  settingsProblem: Problem | undefined;
  /** Each root, with what its hosts file limits it to (null: nothing). */
  roots: { address: string; source: RootStatus['source']; limit: RootLimit | null }[];
  /** Hosts files that could not be read, and roots that cannot be one. */
  problems: Problem[];
}

export async function readRootSources(settingsFile: string, configDir: string, commandLine: string[], onlyCommandLine = false): Promise<RootSources> {
  const loaded = await loadSettings(settingsFile);
  const hostsFiles = await readHostsFiles(configDir);
  const problems = [...hostsFiles.problems];
  const roots: RootSources['roots'] = [];
  // A root that cannot be one (a relative path, a NUL byte) is a problem shown in the app, never a refusal to start.
  const add = (path: string, source: RootStatus['source'], file: string, limit: RootLimit | null = null) => {
    try {
      roots.push({ address: rootAddress(path), source, limit });
    } catch (error) {
      problems.push(problem(file, `runs root ${JSON.stringify(path)} ignored: ${(error as Error).message}`, { tip: 'remove it, or write it as an absolute path' }));
    }
  };
  if (!onlyCommandLine) {
    loaded.settings.roots.forEach((path) => add(path, 'settings', settingsFile));
    hostsFiles.roots.forEach(({ address, limit }) => add(address, 'hosts file', configDir, limit));
  }
  commandLine.forEach((path) => add(path, 'command line', 'command line'));
  return { settings: loaded.settings, settingsProblem: loaded.problem, roots, problems };
}
