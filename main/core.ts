// The Node core: services with one job each, composed into the one Backend both windows talk to.
import { join } from 'node:path';
import type { Backend } from '../shared/contract';
import type { AppInfo, CellSummary, ServedBy } from '../shared/model';
import { AlertLog } from './alerts/log';
import { AlertService, type AlertTiming } from './alerts/service';
import type { ContextOf, Media } from './place/context';
import { BoardReader } from './board';
import { CompareService } from './compare/service';
import { Assembly } from './assembly';
import { EventHub, eventsFor, type EventSource } from './events';
import { listFrames } from './frames';
import { GpuService } from './gpu/service';
import { fleetOf } from './hosts/fleet';
import type { RegistryOptions } from './place/registry';
import { HostsService } from './hosts/service';
import { truthOf } from './launch/run-states';
import { mediaOf } from './media';
import { defaultDataDir } from './paths';
import type { IndexOptions } from './roots/index-options';
import { RootsService } from './roots/service';
import { APP_VERSION } from './version';
import { readLog } from './watch/logs';
import { readTranscript } from './watch/transcript';
import { WatchService } from './watch/service';
import { removeStaleTemps } from './state-file';
import { LOCAL } from '../shared/address';
import { whatIsACell } from '../runners';
import { DEMO_CONTENTS } from '../runners/demo';

export type { Media };

export interface CoreOptions {
  configDir: string;
  transport: ServedBy;
  /** Roots given on the command line: shown for this start, never saved. */
  commandLineRoots?: string[];
  /** Watch only the command line's roots, not the saved ones nor the hosts files' (`cellwatch alerts ROOT`). */
  onlyCommandLineRoots?: boolean;
  /** The window's native folder picker; absent in serve mode. */
  pickFolder?: () => Promise<string | null>;
  /** Where the built-in demo runs, live, when no runs root is configured; absent: no demo. */
  demoRoot?: string;
  /** Rescan roots on SSH hosts every few seconds (default true; tests that drive scans themselves turn it off). */
  rescan?: boolean;
  /** How local roots are watched and swept. */
  index?: IndexOptions;
  /** The nvidia-smi to sample GPUs with; false: no GPU sampler (tests). */
  nvidiaSmi?: string | false;
  /** Where launch profiles put runs by default (the user's data folder). */
  dataDir?: string;
  /** The nvidia-smi to run on SSH hosts (default: nvidia-smi on the host's PATH). */
  remoteNvidiaSmi?: string;
  /** How SSH hosts are reached: the find loop's interval, a byte counter (benchmarks). */
  hosts?: RegistryOptions;
  /** How often alerts are looked for; `readOnly`: use the saved alert settings but write nothing (the CLI). */
  alerts?: AlertTiming & { readOnly?: boolean };
  /** The heap and stall limits of the workers that read open cells (tests scale them down). */
  openCells?: { heapMb?: number; stallMs?: number };
}

/** The contract with its events: what a transport serves. */
export interface EventedBackend extends Backend {
  readonly events: EventSource;
}

/** One window or browser tab: what it opened is released when it goes. */
export interface ClientBackend extends EventedBackend {
  dispose(): Promise<void>;
}

/** The Node core: the contract as plain async functions (as one client of its own), and its events. */
export interface Core extends EventedBackend {
  /** The contract for one window or tab, which releases the cells and streams it opened on dispose. */
  client(): ClientBackend;
  /** What a `media/<cell id>/<path>` or `recordings/<file>` URL names; null when nothing may be served. */
  media(urlPath: string): Promise<Media | null>;
  /** Resolves once the first scans of the roots known at start are done; rows stream out before. */
  scanned(): Promise<void>;
  /** Stops rescans, watchers, samplers and the demo. */
  close(): Promise<void>;
}

export async function createCore(options: CoreOptions): Promise<Core> {
  const events = new EventHub();
  const dataDir = options.dataDir ?? defaultDataDir();
  const parts = new Assembly({
    configDir: options.configDir,
    dataDir,
    nvidiaSmi: options.nvidiaSmi ?? 'nvidia-smi',
    remoteNvidiaSmi: options.remoteNvidiaSmi,
    hosts: options.hosts,
    onHosts: (statuses) => events.emit('hostsChanged', statuses),
    openCells: options.openCells,
  });
  const hosts = new HostsService(parts.hosts);
  const contextOf: ContextOf = parts.contextOf;
  // What writers that died mid-write left (a full disk, kill -9) goes before anything is read.
  await Promise.all([options.configDir, join(dataDir, 'index')].map(removeStaleTemps));
  const prices = await parts.prices();
  // Local roots keep what they read in the data folder between starts.
  const roots = await RootsService.create({ ...options, index: { cacheDir: dataDir, ...options.index } }, events, parts);

  const recordingsDir = join(dataDir, 'recordings');
  // The GPU view names processes by launched run, and launching picks a GPU from the samples: launch only
  // asks for readings once the core is up.
  const launch = await parts.launcher(true, {
    gpus: (host) => gpus.readings(host),
    watchCell: (address, listed, starting) => roots.watchCell(address, listed, starting),
    cellListedAs: (listed) => roots.cellListedAs(listed),
    onRuns: (runs) => events.emit('runsChanged', runs),
  });
  const gpus = new GpuService({ parts, events, runOfGroup: (pgid) => launch.runOfGroup(pgid), rootPaths: () => roots.localPaths() });
  gpus.onSample((sample) => launch.observe(sample));

  // What a launched run's process says beats what its cell's files suggest, in the list and the cell view
  // alike; the cost is the tokens at the list prices of now.
  const present = (row: CellSummary): CellSummary => {
    const state = truthOf(row.state, launch.runStateOf(row.id));
    return prices.price(state === row.state ? row : { ...row, state });
  };
  roots.presentWith(present);
  prices.onChange(() => {
    const ids = roots.cellIds();
    roots.restate(ids);
    watch.restate(ids);
  });
  // Cells open in the window, and the rollouts opened as transcripts, are read off this thread (as remote roots' rows are).
  const openReader = parts.cells;
  const watch = new WatchService((id) => roots.cell(id), contextOf, (delta) => events.emit('cellChanged', delta), present, openReader);
  launch.onCellStates((cells) => {
    roots.restate(cells);
    watch.restate(cells);
  });
  const boards = new BoardReader(contextOf, parts.pool);
  const compare = new CompareService(() => roots.cells(), (id) => roots.cell(id), contextOf, events, recordingsDir, openReader);

  const alerts = new AlertService(await AlertLog.open(join(dataDir, 'alerts.json'), options.alerts?.readOnly), {
    events,
    cells: () => roots.cells(),
    runs: () => launch.listRuns(),
    onRunEnded: (listener) => launch.onRunEnded(listener),
    pairedTest: (a, b) => compare.pairedTest(a, b),
  }, options.alerts);

  const getInfo = async (): Promise<AppInfo> => ({
    name: 'Cellwatch',
    version: APP_VERSION,
    transport: options.transport,
    canPickFolder: options.pickFolder !== undefined,
    settingsFile: roots.settingsFile,
    whatIsACell: whatIsACell(),
    demoContents: DEMO_CONTENTS,
    problems: [...roots.problems(), ...prices.problems(), ...alerts.problems()],
  });

  const client = (): ClientBackend => {
    const id = watch.newClient();
    // What this window asked for, so that it hears only those of the events that are someone's.
    const recordings = new Set<string>();
    const gpuHosts = new Set<string>();
    /** This window asked for these hosts' GPUs: it hears their samples, taken at a window's pace from now on. */
    const showGpus = (hosts: string[]) => {
      hosts.forEach((host) => gpuHosts.add(host));
      gpus.show(hosts);
    };
    const hear = eventsFor(events, {
      cellChanged: (delta) => watch.holds(id, delta.cellId),
      recordProgress: (progress) => recordings.has(progress.id),
      gpuSample: (sample) => sample.host === undefined || gpuHosts.has(sample.host),
    });
    const backend: Backend = {
      getInfo,
      listRoots: () => roots.listRoots(),
      addRoot: (path) => roots.addRoot(path),
      removeRoot: (path) => roots.removeRoot(path),
      listCells: (root) => roots.listCells(root),
      async pickFolder() {
        if (!options.pickFolder) throw new Error('no folder picker in the browser: type the runs root path instead');
        return options.pickFolder();
      },
      openCell: (cell) => watch.openCell(id, cell),
      closeCell: (cell) => watch.closeCell(id, cell),
      setScorer: async (cell, scorer) => {
        await roots.pickScorer(cell, scorer, (picks) => (parts.scorers = picks));
        watch.restate([cell]);
      },
      openStream: (cell, stream, resume) => watch.openStream(id, cell, stream, resume),
      closeStream: (cell, stream) => watch.closeStream(id, cell, stream),
      async listFrames(cellId, source) {
        const cell = roots.cell(cellId);
        return listFrames(cell, source, contextOf(cell).read().fs);
      },
      gpuStatus(host) {
        if (host !== undefined) showGpus([host]);
        return gpus.gpuStatus(host);
      },
      systemStatus: () => gpus.systemStatus(),
      listProfiles: (target) => launch.listProfiles(target),
      planLaunch: (request) => launch.planLaunch(request),
      launchRun: (request) => launch.launchRun(request),
      listRuns: () => launch.listRuns(),
      stopRun: (name) => launch.stopRun(name),
      drainRun: (name) => launch.drainRun(name),
      resumeRun: (id, spec) => launch.resumeRun(id, spec),
      planResume: (id, spec) => launch.planResume(id, spec),
      compare: (slots, seed) => compare.compare(slots, seed),
      record: (slots, seed, seconds, fps) => compare.record(slots, seed, seconds, fps, (started) => recordings.add(started)),
      pairedTest: (a, b) => compare.pairedTest(a, b),
      board: () => boards.report(roots.cells()),
      listHosts: () => hosts.listHosts(),
      async listFleet() {
        const statuses = await hosts.listHosts();
        showGpus(statuses.map((host) => host.alias));
        const gpu = new Map(await Promise.all([LOCAL, ...statuses.map((h) => h.alias)].map(async (alias) => [alias, await gpus.gpuStatus(alias)] as const)));
        return fleetOf(statuses, roots.cells(), await roots.listRoots(), await launch.listRuns(), gpu);
      },
      acceptHostKey: (alias) => hosts.acceptHostKey(alias),
      unlockHostKey: (alias, keyFile, passphrase) => hosts.unlockHostKey(alias, keyFile, passphrase),
      reconnectHost: (alias) => hosts.reconnectHost(alias),
      readLog: (cellId, file, from) => readLog(roots.cell(cellId), contextOf, file, from),
      transcript: (cellId, unit) => readTranscript(roots.cell(cellId), unit, openReader),
      listAlerts: () => alerts.listAlerts(),
      markAlertsRead: (until) => alerts.markAlertsRead(until),
      setAlertPrefs: (prefs) => alerts.setAlertPrefs(prefs),
    };
    return { ...backend, events: hear, dispose: () => watch.release(id) };
  };
  let closing: Promise<void> | undefined;
  return {
    ...client(),
    // The core's own listeners (the CLI, tests) hear everything.
    events,
    client,
    media: (urlPath) => mediaOf(urlPath, () => roots.cells(), contextOf, recordingsDir),
    scanned: () => roots.scanned(),
    // Once: a second close (a test's own, then its fixture's) waits for the first.
    close() {
      closing ??= (async () => {
        alerts.close();
        gpus.close();
        // The hosts first: a root let go of while its host is open would restart the host's feed.
        parts.hosts.close();
        await Promise.all([roots.close(), watch.close()]);
        await parts.close();
      })();
      return closing;
    },
  };
}
