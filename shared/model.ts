// The data model every layer speaks. Field names follow ../docs/formats.md (the CLI's JSON).

export type FormatName = 'coding-agent' | 'bigym-agent' | 'evopolicygym' | 'harbor-job';

export type Board = 'on' | 'ui' | 'nonstd';

export type CellId = string;

/** Something the user should see: what went wrong, where, and what to try. */
export interface Problem {
  /** The file, host or command it concerns. */
  where: string;
  line?: number;
  message: string;
}

export interface CellSummary {
  id: CellId;
  host: string;
  path: string;
  root: string;
  format: FormatName;
  name: string;
  board: Board;
}

export type RootState = 'scanning' | 'ok' | 'missing' | 'unreadable';

export interface RootStatus {
  path: string;
  /** settings: saved in the settings file; command line: given as ROOT for this start only. */
  source: 'settings' | 'command line';
  state: RootState;
  cellCount: number;
  problems: Problem[];
}

export type Transport = 'electron' | 'serve';

export interface AppInfo {
  name: string;
  version: string;
  transport: Transport;
  /** True where a native folder picker exists (the Electron window). */
  canPickFolder: boolean;
  settingsFile: string;
  /** Problems of the app itself, such as an unreadable settings file. */
  problems: Problem[];
}
