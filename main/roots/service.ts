// The runs roots: where they come from (settings, hosts files, the command line, the demo), their scans,
// the rescan timer, and the cells they list. The one owner of the list of cells.
import { dirname } from 'node:path';
import { problem, type CellSummary, type Problem, type RootStatus } from '../../shared/model';
import type { Backend } from '../../shared/contract';
import { runDemo } from '../../runners/demo';
import type { ContextOf } from '../cell-context';
import { NotFoundError } from '../errors';
import type { EventHub } from '../events';
import type { HostRegistry } from '../hosts/registry';
import { scanRoot, type ScanResult } from '../scan';
import { readHostsFiles } from '../ssh/hosts-file';
import { scanRemoteRoot } from '../ssh/remote';
import { loadSettings, saveSettings, settingsFile, type Settings } from '../settings';
import { rootAddress, rootLocation } from './address';

/** How often roots are rescanned for new and changed cells. */
const RESCAN_MS = 3000;

interface RootEntry {
  /** The root's address: a local path, or `ALIAS:/path` on an SSH host. */
  path: string;
  source: RootStatus['source'];
  scan?: ScanResult;
  /** The last scan as JSON, to tell whether a rescan changed anything. */
  fingerprint?: string;
}

export interface RootsOptions {
  configDir: string;
  /** Roots given on the command line: shown for this start only, never saved. */
  commandLineRoots?: string[];
  /** Where the built-in demo runs, live, when no runs root is configured; absent: no demo. */
  demoRoot?: string;
  /** Rescan roots every few seconds (default true). */
  rescan?: boolean;
  /** The window's native folder picker; absent in serve mode. */
  pickFolder?: () => Promise<string | null>;
}

type RootCalls = Pick<Backend, 'listRoots' | 'addRoot' | 'removeRoot' | 'listCells' | 'pickFolder'>;

export class RootsService implements RootCalls {
  private readonly roots = new Map<string, RootEntry>();
  private settings: Settings = { roots: [] };
  /** A settings file that could not be used stays a problem until a save replaces it. */
  private settingsProblem: Problem | undefined;
  private readonly hostsFileProblems: Problem[] = [];
  private demoProblem: Problem | undefined;
  private readonly demo = new AbortController();
  private demoRun: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  readonly settingsFile: string;

  private constructor(
    private readonly options: RootsOptions,
    private readonly events: EventHub,
    private readonly hosts: HostRegistry,
    private readonly contextOf: ContextOf,
  ) {
    this.settingsFile = settingsFile(options.configDir);
  }

  static async create(options: RootsOptions, events: EventHub, hosts: HostRegistry, contextOf: ContextOf): Promise<RootsService> {
    const service = new RootsService(options, events, hosts, contextOf);
    await service.start();
    return service;
  }

  private add(path: string, source: RootStatus['source']): void {
    const address = rootAddress(path);
    if (!this.roots.has(address)) this.roots.set(address, { path: address, source });
  }

  private async start(): Promise<void> {
    const loaded = await loadSettings(this.settingsFile);
    this.settings = loaded.settings;
    this.settingsProblem = loaded.problem;
    this.settings.roots.forEach((path) => this.add(path, 'settings'));
    const hostsFiles = await readHostsFiles(this.options.configDir);
    this.hostsFileProblems.push(...hostsFiles.problems);
    hostsFiles.roots.forEach((address) => this.add(address, 'hosts file'));
    (this.options.commandLineRoots ?? []).forEach((path) => this.add(path, 'command line'));
    const demoRoot = this.options.demoRoot;
    if (this.roots.size === 0 && !this.settings.demoDismissed && demoRoot) {
      this.add(demoRoot, 'demo');
      this.demoRun = runDemo(demoRoot, { speed: 1, instant: false, signal: this.demo.signal }).catch((error: unknown) => {
        this.demoProblem = problem(demoRoot, `the demo stopped: ${(error as Error).message}`);
      });
    }
    await Promise.all([...this.roots.values()].map((entry) => this.rescan(entry)));
    if (this.options.rescan !== false) {
      let rescanning = false;
      this.timer = setInterval(() => {
        if (rescanning) return;
        rescanning = true;
        Promise.all([...this.roots.values()].map((entry) => this.rescan(entry)))
          .then((changes) => changes.some(Boolean) && this.changed())
          .finally(() => (rescanning = false));
      }, RESCAN_MS);
      this.timer.unref();
    }
  }

  private status(entry: RootEntry): RootStatus {
    return { path: entry.path, source: entry.source, state: entry.scan?.state ?? 'scanning', cellCount: entry.scan?.cells.length ?? 0, problems: entry.scan?.problems ?? [] };
  }

  private statuses(): RootStatus[] {
    return [...this.roots.values()].map((entry) => this.status(entry));
  }

  private changed(): void {
    this.events.emit('rootsChanged', this.statuses());
  }

  private async scan(entry: RootEntry): Promise<ScanResult> {
    const { alias, path } = rootLocation(entry.path);
    if (!alias) return scanRoot(path, this.contextOf({ host: 'local' }).read());
    const host = this.hosts.get(alias);
    const waiting = (message: string): ScanResult => entry.scan ?? { state: 'unreadable', cells: [], problems: [problem(entry.path, message)] };
    if (host.status.state !== 'connected') return waiting(`${alias} is ${host.status.state}${host.status.problem ? `: ${host.status.problem.message}` : ''}`);
    try {
      const scan = await scanRemoteRoot(host, path, this.contextOf({ host: alias }).read());
      return { ...scan, cells: scan.cells.map((c) => ({ ...c, root: entry.path })) };
    } catch (error) {
      return waiting(`${alias}: ${(error as Error).message}`);
    }
  }

  /** Rescans a root; true when anything the user sees changed. */
  private async rescan(entry: RootEntry): Promise<boolean> {
    const scan = await this.scan(entry);
    const fingerprint = JSON.stringify(scan);
    const changed = fingerprint !== entry.fingerprint;
    Object.assign(entry, { scan, fingerprint });
    return changed;
  }

  /** A host that just connected is scanned at once, not at the next tick. */
  async rescanHost(alias: string): Promise<void> {
    const mine = [...this.roots.values()].filter((r) => rootLocation(r.path).alias === alias);
    if (mine.length === 0) return;
    await Promise.all(mine.map((entry) => this.rescan(entry)));
    this.changed();
  }

  private async persist(): Promise<void> {
    this.settings = { ...this.settings, roots: [...this.roots.values()].filter((r) => r.source === 'settings').map((r) => r.path) };
    await saveSettings(this.settingsFile, this.settings);
    this.settingsProblem = undefined;
  }

  /** Every listed cell. */
  cells(): CellSummary[] {
    return [...this.roots.values()].flatMap((r) => r.scan?.cells ?? []);
  }

  /** A listed cell by id; NotFoundError otherwise. */
  cell(id: string): CellSummary {
    const found = this.cells().find((c) => c.id === id);
    if (!found) throw new NotFoundError(`${id} is not a cell of a runs root`);
    return found;
  }

  /** The local root paths, for the disks they are on. */
  localPaths(): string[] {
    return [...this.roots.keys()].filter((address) => rootLocation(address).alias === null);
  }

  /** Problems of the app itself: settings, hosts files, the demo. */
  problems(): Problem[] {
    return [this.settingsProblem, this.demoProblem, ...this.hostsFileProblems].filter((p) => p !== undefined);
  }

  /**
   * Makes a launched run's cell listed where the user watches: its parent folder becomes a root if none
   * holds it; waits (up to 10 s) for the cell to appear. Returns its root's cell id when it did.
   */
  async watchCell(cellPath: string, cellId: string): Promise<string | null> {
    let entry = [...this.roots.values()].find((r) => cellPath.startsWith(`${r.path}/`));
    if (!entry) {
      const parent = dirname(cellPath);
      entry = { path: parent, source: 'settings' };
      this.roots.set(parent, entry);
      await this.persist();
    }
    const deadline = Date.now() + 10_000;
    const listed = () => entry.scan?.cells.some((c) => c.id === cellId) ?? false;
    while (Date.now() < deadline) {
      await this.rescan(entry);
      if (listed()) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    this.changed();
    return listed() ? cellId : null;
  }

  async listRoots() {
    return this.statuses();
  }

  async addRoot(path: string) {
    const address = rootAddress(path);
    const entry: RootEntry = { ...this.roots.get(address), path: address, source: 'settings' };
    this.roots.set(address, entry);
    const alias = rootLocation(address).alias;
    if (alias && this.hosts.get(alias).status.state !== 'connected') await this.hosts.get(alias).ready().catch(() => undefined);
    await this.persist();
    await this.rescan(entry);
    this.changed();
    return this.status(entry);
  }

  async removeRoot(path: string) {
    const address = rootAddress(path);
    const entry = this.roots.get(address);
    if (!entry) throw new NotFoundError(`${address} is not a runs root`);
    this.roots.delete(address);
    this.hosts.prune(new Set([...this.roots.keys()].map((r) => rootLocation(r).alias).filter((a) => a !== null)));
    if (entry.source === 'demo') {
      this.demo.abort();
      this.settings = { ...this.settings, demoDismissed: true };
    }
    if (entry.source === 'settings' || entry.source === 'demo') await this.persist();
    this.changed();
  }

  async listCells(root?: string) {
    if (root === undefined) return this.cells();
    const entry = this.roots.get(rootAddress(root));
    if (!entry) throw new NotFoundError(`${root} is not a runs root`);
    return entry.scan?.cells ?? [];
  }

  async pickFolder() {
    if (!this.options.pickFolder) throw new Error('no folder picker in the browser: type the runs root path instead');
    return this.options.pickFolder();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.demo.abort();
    await this.demoRun;
  }
}
