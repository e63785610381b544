// The runs roots: where they come from (settings, hosts files, the command line, the demo), their
// indexes, and the cells they list. The one owner of the list of cells; it sends changes as deltas.
import { ADAPTERS } from '../../runners';
import { dirname } from 'node:path';
import type { CellsDelta, CellSummary, Problem, RootLimit, RootStatus } from '../../shared/model';
import type { Backend } from '../../shared/contract';
import type { EventHub } from '../events';
import { SavedSettings } from './saved-settings';
import { rootAddress } from './address';
import { isLocal, parseAddress } from '../../shared/address';
import { LiveDemo } from './demo';
import { limitedDelta, limitedStatus, listedRows } from './limit';
import { openIndex, type IndexPlaces } from './open-index';
import type { RootIndex } from './root-index';
import { readRootSources, type RootsOptions } from './sources';
import { append } from '../../shared/arrays';
import { RowsOut } from './rows-out';
import { RootHosts } from './root-hosts';
import { until } from './until';
import { NotFoundError } from '../../shared/errors';
import { firstListedAs } from '../../shared/launch';

interface RootEntry {
  /** The root's address: a local path, or `ALIAS:/path` on an SSH host. */
  path: string;
  source: RootStatus['source'];
  /** What its hosts file limits it to: only those cells are listed. */
  limit: RootLimit | null;
  index?: RootIndex;
}

type RootCalls = Pick<Backend, 'listRoots' | 'addRoot' | 'removeRoot' | 'listCells'>;

export class RootsService implements RootCalls {
  private readonly roots = new Map<string, RootEntry>();
  private readonly saved: SavedSettings;
  private readonly rootHosts: RootHosts;
  private readonly out: RowsOut;
  /** Problems met reading the settings and hosts files at start. */
  private readonly startProblems: Problem[] = [];
  private demo: LiveDemo | undefined;
  /** The first scans of the roots known at start, which run on after the service is up. */
  private firstScans: Promise<unknown> = Promise.resolve();

  /** `places`: the hosts, and the read workers of local roots and of remote cells. */
  private constructor(
    private readonly options: RootsOptions,
    private readonly events: EventHub,
    private readonly places: IndexPlaces,
  ) {
    this.saved = new SavedSettings(options.configDir);
    this.out = new RowsOut(events, () => [...this.roots.values()].map((entry) => [entry.path, this.rowsOf(entry)]));
    this.rootHosts = new RootHosts(places.hosts, events, () => [...this.roots.keys()], () => this.changed());
  }

  static async create(options: RootsOptions, events: EventHub, places: IndexPlaces): Promise<RootsService> {
    const service = new RootsService(options, events, places);
    await service.start();
    return service;
  }

  private add(path: string, source: RootStatus['source'], limit: RootLimit | null = null): RootEntry {
    const address = rootAddress(path);
    let entry = this.roots.get(address);
    if (!entry) this.roots.set(address, (entry = { path: address, source, limit }));
    return entry;
  }

  /** The root's index, started: a local root's first scan streams rows to the window; a remote one is scanned. */
  private async index(entry: RootEntry): Promise<void> {
    if (entry.index) return;
    const emit = (all: CellsDelta) => this.out.send(limitedDelta(all, entry.limit));
    const rescanMs = this.options.rescan === false ? false : undefined;
    entry.index = openIndex(entry.path, this.places, emit, () => this.changed(), { ...this.options.index, rescanMs });
    await entry.index.start();
  }

  private async start(): Promise<void> {
    const sources = await readRootSources(this.saved.file, this.options.configDir, this.options.commandLineRoots ?? [], this.options.onlyCommandLineRoots);
    this.saved.loaded(sources.settings, sources.settingsProblem);
    append(this.startProblems, sources.problems);
    sources.roots.forEach(({ address, source, limit }) => this.add(address, source, limit));
    const demoRoot = this.options.demoRoot;
    if (this.roots.size === 0 && !this.saved.settings.demoDismissed && demoRoot) {
      this.add(demoRoot, 'demo');
      this.demo = new LiveDemo(demoRoot);
    }
    this.firstScans = Promise.all([...this.roots.values()].map((entry) => this.index(entry)));
  }

  private status(entry: RootEntry): RootStatus {
    const status = entry.index?.status(entry.source) ?? { path: entry.path, source: entry.source, state: 'scanning', cellCount: 0, problems: [], progress: null };
    return limitedStatus(status, entry.limit ? (entry.index?.list() ?? []) : [], entry.limit);
  }

  private rowsOf(entry: RootEntry): CellSummary[] {
    return listedRows(entry.index?.list() ?? [], entry.limit);
  }

  /** How a row goes out: its state as the process of a run launched there says (set by the core). */
  presentWith(present: (row: CellSummary) => CellSummary): void {
    this.out.presentWith(present);
  }

  /** The rows of these cells go out again: what their launched runs say changed. */
  restate(cellIds: string[]): void {
    this.out.restate(cellIds);
  }

  private statuses(): RootStatus[] {
    return [...this.roots.values()].map((entry) => this.status(entry));
  }

  private changed(): void {
    this.events.emit('rootsChanged', this.statuses());
  }

  /** Resolves once the roots known at start have had their first scan (rows stream out meanwhile). */
  async scanned(): Promise<void> {
    await this.firstScans;
  }

  /** Where the roots the user added are kept. */
  get settingsFile(): string {
    return this.saved.file;
  }

  /** Adds a root and saves it; a root that could not be saved (a full disk) is not kept either. */
  private async addSaved(path: string): Promise<RootEntry> {
    const known = this.roots.get(rootAddress(path));
    const entry = this.add(path, 'settings');
    const source = entry.source;
    entry.source = 'settings';
    try {
      await this.saved.addRoot(entry.path);
    } catch (error) {
      if (known) entry.source = source;
      else this.roots.delete(entry.path);
      throw error;
    }
    return entry;
  }

  /**
   * Saves the scorer an Inspect log's outcomes are read by (null: its first), and reads the log again with it:
   * its row, its board and its open view alike. `apply` hands the new picks to every reader first.
   */
  async pickScorer(id: string, scorer: string | null, apply: (picks: Record<string, string>) => void): Promise<void> {
    const cell = this.cell(id);
    if (!ADAPTERS[cell.format].capabilities.scorerPick) throw new Error(`${cell.name} is a ${cell.format} cell: its outcomes are not read by a scorer one picks`);
    apply(await this.saved.pickScorer(id, scorer));
    for (const entry of this.roots.values()) if (this.rowsOf(entry).some((c) => c.id === id)) entry.index?.reread(cell.path);
  }

  /** Every root's rows, not yet presented: presenting a row (pricing it, its launched run's state, its rivals) leaves its id as it is. */
  private rows(): CellSummary[] {
    return [...this.roots.values()].flatMap((entry) => this.rowsOf(entry));
  }

  /** Every listed cell. */
  cells(): CellSummary[] {
    return this.rows().map(this.out.present);
  }

  /** The ids of the cells listed now. */
  cellIds(): string[] {
    return this.rows().map((c) => c.id);
  }

  /** A listed cell by id, only it presented; NotFoundError otherwise. */
  cell(id: string): CellSummary {
    const found = this.rows().find((c) => c.id === id);
    if (!found) throw new NotFoundError(`${id} is not a cell of a runs root`);
    return this.out.present(found);
  }

  /** The local root paths, for the disks they are on. */
  localPaths(): string[] {
    return [...this.roots.keys()].filter((address) => isLocal(parseAddress(address).host));
  }

  /** Problems of the app itself: settings, hosts files, the demo. */
  problems(): Problem[] {
    return [this.saved.problem, this.demo?.problem(), ...this.startProblems].filter((p) => p !== undefined);
  }

  /**
   * Makes a launched run's cell listed where the user watches: its parent folder becomes a root if none
   * holds it; waits (up to 10 s, while `starting` says so) for the cell to appear. Returns its id when it did.
   * `listed` is the cell's id, or a pattern of it where the runner names its own file (`isListedAs`).
   */
  async watchCell(cellPath: string, listed: string, starting: () => boolean = () => true): Promise<string | null> {
    let entry = [...this.roots.values()].find((r) => cellPath.startsWith(`${r.path}/`));
    if (!entry) {
      entry = await this.addSaved(dirname(cellPath));
      await this.index(entry);
    }
    const found = () => firstListedAs(listed, this.rowsOf(entry).map((c) => c.id));
    await until(() => found() !== null, () => entry.index?.refresh(), starting);
    this.changed();
    return found();
  }

  /** The listed cell a launch lists as `listed` (`isListedAs`), if one is listed now: the first by name. */
  cellListedAs(listed: string): string | null {
    return firstListedAs(listed, this.cellIds());
  }

  async listRoots() {
    return this.statuses();
  }

  async addRoot(path: string) {
    const entry = await this.addSaved(path);
    // Listed (and removable) while its host connects; the connect's first outcome, either way, goes on.
    this.changed();
    await this.rootHosts.firstConnect(entry.path);
    if (this.roots.get(entry.path) !== entry) return this.status(entry);
    if (entry.index) await entry.index.refresh();
    else await this.index(entry);
    this.changed();
    return this.status(entry);
  }

  async removeRoot(path: string) {
    const address = rootAddress(path);
    const entry = this.roots.get(address);
    if (!entry) throw new NotFoundError(`${address} is not a runs root`);
    this.roots.delete(address);
    await entry.index?.close();
    this.events.emit('cellsChanged', { root: address, added: [], changed: [], removed: this.rowsOf(entry).map((c) => c.id) });
    this.out.restate(this.out.reclaim());
    this.rootHosts.prune();
    if (entry.source === 'demo') void this.demo?.stop();
    if (entry.source === 'settings' || entry.source === 'demo') await this.saved.removeRoot(address, entry.source === 'demo');
    this.changed();
  }

  async listCells(root?: string) {
    if (root === undefined) return this.cells();
    const entry = this.roots.get(rootAddress(root));
    if (!entry) throw new NotFoundError(`${root} is not a runs root`);
    return this.rowsOf(entry).map(this.out.present);
  }

  async close(): Promise<void> {
    this.rootHosts.close();
    await Promise.all([this.demo?.stop(), ...[...this.roots.values()].map((entry) => entry.index?.close())]);
  }
}
