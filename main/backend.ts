import { homedir } from 'node:os';
import { dirname, isAbsolute, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Backend } from '../shared/contract';
import type { AppInfo, CellSummary, Problem, RootStatus, Transport } from '../shared/model';
import { JsonReader, localFs } from '../runners';
import { runDemo } from '../runners/demo';
import { localContext } from './cells';
import { compareSides, splitAddress } from './compare/paired';
import { EventHub } from './events';
import { listFrames } from './frames';
import { startGpu, type GpuFeed } from './gpu/history';
import { shellQuote } from './launch/quote';
import { parseGpus } from './gpu/parse';
import { diskOf, sampleSystem } from './gpu/system';
import { compareSlots } from './compare/slots';
import { slotInputs } from './record/compose';
import { findFfmpeg } from './record/ffmpeg';
import { recordComparison } from './record/record';
import type { RecordProgress } from '../shared/cell-detail';
import { gpuQueryArgs, runOnce } from './gpu/sampler';
import { planLaunch, profileDirs, profileInfos, type LaunchContext } from './launch/plan';
import { processGroupOf } from './launch/pgid';
import { RunManager, type RunView } from './launch/runs';
import { defaultDataDir, packageRoot } from './paths';
import { cellId as cellIdOf } from '../shared/names';
import type { RunInfo } from '../shared/launch';
import { resolveStatic } from './static';
import { Sessions } from './watch/sessions';
import type { CellAccess } from './watch/session';
import { localSource } from './tail/source';
import { sftpSource } from './ssh/sftp-fs';
import { parseRemote } from './ssh/config';
import { Hosts } from './ssh/hosts';
import { readHostsFiles } from './ssh/hosts-file';
import { scanRemoteRoot } from './ssh/remote';
import { scanRoot, type ScanResult } from './scan';
import { loadSettings, saveSettings, settingsFile, type Settings } from './settings';
import { APP_VERSION } from './version';

/** Frames and videos of remote cells are fetched whole; larger files are not served. */
const MAX_MEDIA_BYTES = 64 << 20;

/** A file to serve: on this machine, or read from an SSH host. */
export type Media = { file: string } | { bytes: Buffer; name: string };

/** How often roots are rescanned for new and changed cells. */
const RESCAN_MS = 3000;

export interface CoreOptions {
  configDir: string;
  transport: Transport;
  /** Roots given on the command line: shown for this start, never saved. */
  commandLineRoots?: string[];
  /** The window's native folder picker; absent in serve mode. */
  pickFolder?: () => Promise<string | null>;
  /** Where the built-in demo runs, live, when no runs root is configured; absent: no demo. */
  demoRoot?: string;
  /** Rescan roots every few seconds (default true; tests that drive scans themselves turn it off). */
  rescan?: boolean;
  /** The nvidia-smi to sample GPUs with; false: no GPU sampler (tests). */
  nvidiaSmi?: string | false;
  /** Where launch profiles put runs by default (the user's data folder). */
  dataDir?: string;
  /** The nvidia-smi to run on SSH hosts (default: nvidia-smi on the host's PATH). */
  remoteNvidiaSmi?: string;
}

/** The contract with its events: what a transport serves. */
export interface EventedBackend extends Backend {
  readonly events: EventHub;
}

/** One window or browser tab: what it opened is released when it goes. */
export interface ClientBackend extends EventedBackend {
  dispose(): Promise<void>;
}

/** The Node core: implements the contract as plain async functions and emits its events. */
export interface Core extends EventedBackend {
  /** A view of the core for one client, which releases the cells and streams it opened on dispose. */
  client(): ClientBackend;
  /**
   * What a `media/<cell id>/<path>` URL names, only inside a listed cell (a local file, or the bytes of
   * one on an SSH host), or a `recordings/<file>`; null otherwise.
   */
  media(urlPath: string): Promise<Media | null>;
  /** Stops rescans, watchers and the demo. */
  close(): Promise<void>;
}

interface RootEntry {
  /** The root's address: a local path, or `ALIAS:/path` on an SSH host. */
  path: string;
  source: RootStatus['source'];
  scan?: ScanResult;
  /** The last scan as JSON, to tell whether a rescan changed anything. */
  fingerprint?: string;
}

/**
 * A root the user typed, as the key it is kept under: `ALIAS:/abs/path` (or `ssh://ALIAS/abs/path`) on
 * an SSH host; else a local path, `~` being their home (a relative path would depend on where the core started).
 */
function rootAddress(path: string): string {
  const remote = parseRemote(path.trim());
  if (remote) return `${remote.alias}:${posix.resolve(remote.path)}`;
  const expanded = path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
  if (!isAbsolute(expanded)) throw new Error(`runs root must be an absolute path (or ALIAS:/path on an SSH host), not ${JSON.stringify(path)}`);
  return resolve(expanded);
}

/** The host and path of a root address. */
function rootLocation(address: string): { alias: string | null; path: string } {
  const remote = parseRemote(address);
  return remote ? { alias: remote.alias, path: remote.path } : { alias: null, path: address };
}

export async function createCore(options: CoreOptions): Promise<Core> {
  const file = settingsFile(options.configDir);
  const loaded = await loadSettings(file);
  let settings: Settings = loaded.settings;
  // A settings file that could not be used stays a problem until a save replaces it.
  let settingsProblem: Problem | undefined = loaded.problem;
  const events = new EventHub();
  const json = new JsonReader(localFs);

  const roots = new Map<string, RootEntry>();
  const addEntry = (path: string, source: RootStatus['source']) => {
    const address = rootAddress(path);
    if (!roots.has(address)) roots.set(address, { path: address, source });
  };
  // nvidia-smi on each connected SSH host, over that host's connection.
  const remoteGpus = new Map<string, GpuFeed>();
  const remoteNvidiaSmi = options.remoteNvidiaSmi ?? 'nvidia-smi';
  const connectedHosts = new Set<string>();
  const hosts = new Hosts((hostStatuses) => {
    events.emit('hostsChanged', hostStatuses);
    for (const [alias, feed] of remoteGpus) {
      if (hostStatuses.some((h) => h.alias === alias)) continue;
      feed.stop();
      remoteGpus.delete(alias);
    }
    for (const status of hostStatuses.filter((h) => h.state === 'connected' && !remoteGpus.has(h.alias))) {
      const host = hosts.get(status.alias);
      remoteGpus.set(
        status.alias,
        startGpu(remoteNvidiaSmi, (sample) => events.emit('gpuSample', { ...sample, host: status.alias }), undefined, {
          spawn: (args) => host.spawn(remoteNvidiaSmi, args),
          once: async (args) => (await host.exec(shellQuote([remoteNvidiaSmi, ...args]))).stdout,
        }),
      );
    }
    // A host that just connected is scanned at once, not at the next tick; one already connected is not rescanned.
    const justConnected = hostStatuses.filter((h) => h.state === 'connected' && !connectedHosts.has(h.alias));
    connectedHosts.clear();
    hostStatuses.filter((h) => h.state === 'connected').forEach((h) => connectedHosts.add(h.alias));
    for (const host of justConnected) {
      const mine = [...roots.values()].filter((r) => rootLocation(r.path).alias === host.alias);
      if (mine.length) void Promise.all(mine.map(rescan)).then(() => events.emit('rootsChanged', statuses()));
    }
  });
  settings.roots.forEach((path) => addEntry(path, 'settings'));
  const hostsFiles = await readHostsFiles(options.configDir);
  hostsFiles.roots.forEach((address) => addEntry(address, 'hosts file'));
  (options.commandLineRoots ?? []).forEach((path) => addEntry(path, 'command line'));

  const demo = new AbortController();
  let demoProblem: Problem | undefined;
  let demoRun: Promise<unknown> = Promise.resolve();
  if (roots.size === 0 && !settings.demoDismissed && options.demoRoot) {
    addEntry(options.demoRoot, 'demo');
    demoRun = runDemo(options.demoRoot, { speed: 1, instant: false, signal: demo.signal }).catch((error: unknown) => {
      demoProblem = { file: options.demoRoot as string, message: `the demo stopped: ${(error as Error).message}` };
    });
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

  async function scanEntry(entry: RootEntry): Promise<ScanResult> {
    const { alias, path } = rootLocation(entry.path);
    if (!alias) return scanRoot(path, localContext(json));
    const host = hosts.get(alias);
    const waiting = (message: string): ScanResult => entry.scan ?? { state: 'unreadable', cells: [], problems: [{ file: entry.path, message }] };
    if (host.status.state !== 'connected') return waiting(`${alias} is ${host.status.state}${host.status.problem ? `: ${host.status.problem}` : ''}`);
    try {
      const scan = await scanRemoteRoot(host, path, hosts.context(alias));
      return { ...scan, cells: scan.cells.map((c) => ({ ...c, root: entry.path })) };
    } catch (error) {
      return waiting(`${alias}: ${(error as Error).message}`);
    }
  }

  /** Rescans a root; true when anything the user sees changed. */
  async function rescan(entry: RootEntry): Promise<boolean> {
    const scan = await scanEntry(entry);
    const fingerprint = JSON.stringify(scan);
    const changed = fingerprint !== entry.fingerprint;
    Object.assign(entry, { scan, fingerprint });
    return changed;
  }

  async function persist(): Promise<void> {
    settings = { ...settings, roots: [...roots.values()].filter((r) => r.source === 'settings').map((r) => r.path) };
    await saveSettings(file, settings);
    settingsProblem = undefined;
  }

  await Promise.all([...roots.values()].map(rescan));

  let rescanning = false;
  const timer =
    options.rescan === false
      ? undefined
      : setInterval(() => {
          if (rescanning) return;
          rescanning = true;
          Promise.all([...roots.values()].map(rescan))
            .then((changes) => changes.some(Boolean) && events.emit('rootsChanged', statuses()))
            .finally(() => (rescanning = false));
        }, RESCAN_MS);
  timer?.unref();

  const listed = () => [...roots.values()].flatMap((r) => r.scan?.cells ?? []);
  const findCell = (id: string) => listed().find((c) => c.id === id);
  const access = (cell: CellSummary): CellAccess => {
    if (cell.host === 'local') return { context: () => localContext(json), source: localSource, watchable: true };
    const host = hosts.get(cell.host);
    return { context: () => hosts.context(cell.host), source: (path) => sftpSource(() => host.sftp(), path), watchable: false };
  };
  const sessions = new Sessions(findCell, access, (delta) => events.emit('cellChanged', delta));

  const runs = new RunManager(join(options.configDir, 'launched.json'));
  // Process group → launched run, refreshed as runs start; the GPU panel names each process's run.
  let runGroups = new Map<number, string>();
  const refreshRunGroups = async () => {
    runGroups = new Map((await runs.list()).filter((r) => r.state === 'running').map((r) => [r.pid, r.name]));
  };
  await refreshRunGroups();
  const vramPeaks = new Map<string, number>();
  const gpu = startGpu(
    options.nvidiaSmi ?? 'nvidia-smi',
    (sample) => {
      for (const p of sample.processes) if (p.run && p.usedMib !== null) vramPeaks.set(p.run, Math.max(vramPeaks.get(p.run) ?? 0, p.usedMib));
      events.emit('gpuSample', sample);
    },
    (pid) => runGroups.get(processGroupOf(pid) ?? -1),
  );
  const root = packageRoot(dirname(fileURLToPath(import.meta.url)));
  const dataDir = options.dataDir ?? defaultDataDir();
  const recordingsDir = join(dataDir, 'recordings');
  const launchContext: LaunchContext = {
    profileDirs: profileDirs(root, options.configDir),
    dataDir,
    cli: join(root, 'out', 'cli.mjs'),
    gpus: async () => gpu.latest() ?? (options.nvidiaSmi === false ? [] : runOnce(options.nvidiaSmi ?? 'nvidia-smi', gpuQueryArgs()).then(parseGpus, () => [])),
  };
  const runInfo = (run: RunView): RunInfo => ({
    name: run.name,
    profile: run.profile,
    cell: run.cell,
    pid: run.pid,
    gpu: run.gpu,
    startedAt: run.startedAt,
    state: run.state,
    exitCode: run.exit?.code ?? null,
    canDrain: run.canDrain,
    stderrTail: run.stderrTail,
    vramPeakMib: vramPeaks.get(run.name) ?? null,
  });

  const core: Core = {
    events,
    async close() {
      gpu.stop();
      remoteGpus.forEach((feed) => feed.stop());
      hosts.close();
      clearInterval(timer);
      demo.abort();
      await Promise.all([demoRun, sessions.closeAll()]);
    },
    client() {
      const cells = new Map<string, number>();
      const streams = new Map<string, number>();
      const count = (map: Map<string, number>, key: string, by: number) => map.set(key, (map.get(key) ?? 0) + by);
      return {
        ...core,
        async openCell(id) {
          const detail = await core.openCell(id);
          count(cells, id, 1);
          return detail;
        },
        async closeCell(id) {
          if (!cells.get(id)) return;
          count(cells, id, -1);
          await core.closeCell(id);
        },
        async openStream(id, stream) {
          const opened = await core.openStream(id, stream);
          count(streams, JSON.stringify([id, stream]), 1);
          return opened;
        },
        async closeStream(id, stream) {
          const key = JSON.stringify([id, stream]);
          if (!streams.get(key)) return;
          count(streams, key, -1);
          await core.closeStream(id, stream);
        },
        async dispose() {
          for (const [key, n] of streams) for (let i = 0; i < n; i++) sessions.closeStream(...(JSON.parse(key) as [string, string]));
          for (const [id, n] of cells) for (let i = 0; i < n; i++) await sessions.closeCell(id);
          cells.clear();
          streams.clear();
        },
      };
    },
    async media(urlPath) {
      if (urlPath.startsWith('/recordings/')) {
        const file = await resolveStatic(recordingsDir, urlPath.slice('/recordings'.length));
        return file ? { file } : null;
      }
      const match = /^\/media\/([^/]+)\/(.+)$/.exec(urlPath);
      if (!match) return null;
      let id: string;
      try {
        id = decodeURIComponent(match[1] as string);
      } catch {
        return null;
      }
      const cell = findCell(id);
      if (!cell) return null;
      if (cell.host === 'local') {
        const file = await resolveStatic(cell.path, `/${match[2]}`);
        return file ? { file } : null;
      }
      const relative = posix.normalize(`/${decodeURIComponent(match[2] as string)}`);
      const host = hosts.get(cell.host);
      const source = sftpSource(() => host.sftp(), posix.join(cell.path, relative));
      const info = await source.stat().catch(() => null);
      if (!info || info.size > MAX_MEDIA_BYTES) return null;
      return { bytes: await source.read(0, info.size), name: relative };
    },
    openCell: (id) => sessions.openCell(id),
    closeCell: (id) => sessions.closeCell(id),
    openStream: (id, stream) => sessions.openStream(id, stream),
    async closeStream(id, stream) {
      sessions.closeStream(id, stream);
    },
    async gpuStatus(host) {
      if (host === undefined || host === 'local') return gpu.status();
      return remoteGpus.get(host)?.status() ?? { available: false, problems: [`${host} is not connected`], history: [] };
    },
    async systemStatus() {
      const system = await sampleSystem(!gpu.latest());
      const disks = [...roots.keys()].map((root) => diskOf(system.disks, root)).filter((d) => d !== undefined);
      return { ...system, disks: [...new Map(disks.map((d) => [d.mount, d])).values()] };
    },
    listProfiles: () => profileInfos(launchContext),
    async planLaunch(request) {
      return (await planLaunch(request, launchContext)).plan;
    },
    async launchRun(request) {
      const { plan, run, profile } = await planLaunch(request, launchContext);
      if (plan.refused) throw new Error(plan.refused);
      const launched = await runs.launch(run, plan.gpu, profile.drain === 'sentinel');
      await refreshRunGroups();
      // The run's cell shows up where the user watches: its folder's parent becomes a root if none holds it.
      const parent = dirname(run.cell);
      let entry = [...roots.values()].find((r) => run.cell.startsWith(`${r.path}/`));
      if (!entry) {
        entry = { path: parent, source: 'settings' };
        roots.set(parent, entry);
        await persist();
      }
      const cellId = cellIdOf('local', run.cell);
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        await rescan(entry);
        if (entry.scan?.cells.some((c) => c.id === cellId)) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      events.emit('rootsChanged', statuses());
      const view = (await runs.list()).find((r) => r.name === launched.name) as RunView;
      return { run: runInfo(view), cellId: entry.scan?.cells.some((c) => c.id === cellId) ? cellId : null };
    },
    async listRuns() {
      return (await runs.list()).map(runInfo);
    },
    async stopRun(name) {
      return runInfo(await runs.stop(name));
    },
    drainRun: (name) => runs.drain(name),
    compare: (slots, seed) => compareSlots(slots, seed, listed(), localContext(json)),
    async record(slots, seed, seconds, fps) {
      const comparison = await compareSlots(slots, seed, listed(), localContext(json));
      const ffmpeg = findFfmpeg();
      const id = `compare-${new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}-${seed}`;
      const file = join(recordingsDir, `${id}.mp4`);
      const paths = new Map(listed().map((c) => [c.id, c.path]));
      const emit = (progress: Omit<RecordProgress, 'id'>) => events.emit('recordProgress', { id, ...progress });
      recordComparison(ffmpeg, slotInputs(comparison, (cellId) => paths.get(cellId) as string), { seconds, fps, out: file }, (fraction) => emit({ fraction })).then(
        (result) => emit({ fraction: 1, file, url: `recordings/${id}.mp4`, ...(result.note ? { note: result.note } : {}) }),
        (error: Error) => emit({ fraction: 0, error: error.message }),
      );
      return { id };
    },
    async listFrames(id, source) {
      const cell = findCell(id);
      if (!cell) throw new Error(`${id} is not a cell of a runs root`);
      return listFrames(cell, source, cell.host === 'local' ? localFs : hosts.context(cell.host).fs);
    },
    async getInfo(): Promise<AppInfo> {
      return {
        name: 'Cellwatch',
        version: APP_VERSION,
        transport: options.transport,
        canPickFolder: options.pickFolder !== undefined,
        settingsFile: file,
        problems: [settingsProblem, demoProblem, ...hostsFiles.problems].filter((p) => p !== undefined),
      };
    },
    async listRoots() {
      return statuses();
    },
    async addRoot(path) {
      const address = rootAddress(path);
      const entry: RootEntry = { ...roots.get(address), path: address, source: 'settings' };
      roots.set(address, entry);
      const alias = rootLocation(address).alias;
      if (alias && hosts.get(alias).status.state !== 'connected') await hosts.get(alias).ready().catch(() => undefined);
      await persist();
      await rescan(entry);
      events.emit('rootsChanged', statuses());
      return status(entry);
    },
    async removeRoot(path) {
      const address = rootAddress(path);
      const entry = roots.get(address);
      if (!entry) throw new Error(`${address} is not a runs root`);
      roots.delete(address);
      hosts.prune(new Set([...roots.keys()].map((r) => rootLocation(r).alias).filter((a) => a !== null)));
      if (entry.source === 'demo') {
        demo.abort();
        settings = { ...settings, demoDismissed: true };
      }
      if (entry.source === 'settings' || entry.source === 'demo') await persist();
      events.emit('rootsChanged', statuses());
    },
    async listCells(root) {
      const chosen = root === undefined ? [...roots.values()] : [roots.get(rootAddress(root))].filter((r) => r !== undefined);
      if (root !== undefined && chosen.length === 0) throw new Error(`${root} is not a runs root`);
      return chosen.flatMap((r): CellSummary[] => r.scan?.cells ?? []);
    },
    async pairedTest(a, b) {
      const address = (id: string) => {
        const { cell, version } = splitAddress(id);
        const found = findCell(cell);
        if (!found) throw new Error(`${cell} is not a cell of a runs root`);
        const where = found.host === 'local' ? found.path : `${found.host}:${found.path}`;
        return version ? `${where}@${version}` : where;
      };
      return compareSides(address(a), address(b));
    },
    async listHosts() {
      return hosts.statuses();
    },
    async acceptHostKey(alias) {
      hosts.acceptKey(alias);
    },
    async unlockHostKey(alias, keyFile, passphrase) {
      hosts.unlock(alias, keyFile, passphrase);
    },
    async reconnectHost(alias) {
      hosts.reconnect(alias);
    },
    async pickFolder() {
      if (!options.pickFolder) throw new Error('no folder picker in the browser: type the runs root path instead');
      return options.pickFolder();
    },
  };
  return core;
}
