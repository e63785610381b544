// UI runs: profiles, the dry run, launching, the runs this app launched (stop, drain) and the GPU memory
// their processes hold.
import { join } from 'node:path';
import type { GpuReading, GpuSample } from '../../shared/cell-detail';
import type { Backend } from '../../shared/contract';
import type { RunInfo, RunState } from '../../shared/launch';
import { cellId } from '../../shared/names';
import { planLaunch, profileDirs, profileInfos, type LaunchContext } from './plan';
import { RunManager, type RunView } from './runs';

export interface LaunchOptions {
  configDir: string;
  /** The package's root: shipped profiles and the CLI a demo run starts. */
  packageRoot: string;
  /** Where launch profiles put runs by default. */
  dataDir: string;
  gpus(): Promise<GpuReading[]>;
  /** Makes a launched cell listed; its id once it is. */
  watchCell(cellPath: string, cellId: string): Promise<string | null>;
}

/** How often launched runs' processes are looked at for having ended unseen. */
const STATE_CHECK_MS = 2000;

type LaunchCalls = Pick<Backend, 'listProfiles' | 'planLaunch' | 'launchRun' | 'listRuns' | 'stopRun' | 'drainRun'>;

export class LaunchService implements LaunchCalls {
  private readonly runs: RunManager;
  private readonly context: LaunchContext;
  /** Process group → launched run, refreshed as runs start; the GPU view names each process's run. */
  private groups = new Map<number, string>();
  private readonly vramPeaks = new Map<string, number>();
  private readonly endedListeners: ((run: RunInfo) => void)[] = [];
  /** Each cell's latest launched run's state, as last looked at; who hears when one changes. */
  private cellStates = new Map<string, RunState>();
  private readonly stateListeners: ((cells: string[]) => void)[] = [];
  private readonly stateTimer: NodeJS.Timeout;

  private constructor(private readonly options: LaunchOptions) {
    this.runs = new RunManager(join(options.configDir, 'launched.json'), (run) => {
      this.endedListeners.forEach((listener) => listener(this.info(run)));
      void this.refreshStates();
    });
    // A run left running at the last start, or one whose process group outlives its leader, ends unseen: looked at now and then.
    this.stateTimer = setInterval(() => void this.refreshStates(), STATE_CHECK_MS);
    this.stateTimer.unref();
    this.context = {
      profileDirs: profileDirs(options.packageRoot, options.configDir),
      dataDir: options.dataDir,
      cli: join(options.packageRoot, 'out', 'cli.mjs'),
      gpus: options.gpus,
    };
  }

  static async create(options: LaunchOptions): Promise<LaunchService> {
    const service = new LaunchService(options);
    await Promise.all([service.refreshGroups(), service.refreshStates()]);
    return service;
  }

  /** What the process of the latest run this app launched in `cellPath` says, if it launched one. */
  runStateOf(cellPath: string): RunState | undefined {
    return this.cellStates.get(cellPath);
  }

  /** Hears the cell folders whose launched run's state changed. */
  onCellStates(listener: (cells: string[]) => void): void {
    this.stateListeners.push(listener);
  }

  private async refreshStates(): Promise<void> {
    const next = await this.runs.states();
    const changed = [...new Set([...next.keys(), ...this.cellStates.keys()])].filter((cell) => next.get(cell) !== this.cellStates.get(cell));
    this.cellStates = next;
    if (changed.length) this.stateListeners.forEach((listener) => listener(changed));
  }

  close(): void {
    clearInterval(this.stateTimer);
  }

  private async refreshGroups(): Promise<void> {
    this.groups = new Map((await this.runs.list()).filter((r) => r.state === 'running').map((r) => [r.pid, r.name]));
  }

  /** Hears each launched run that ends while this app watches it: crashed, exited, stopped. */
  onRunEnded(listener: (run: RunInfo) => void): void {
    this.endedListeners.push(listener);
  }

  runOfGroup(pgid: number): string | undefined {
    return this.groups.get(pgid);
  }

  /** Keeps each launched run's GPU memory peak, from the samples that name its processes. */
  observe(sample: GpuSample): void {
    for (const p of sample.processes) if (p.run && p.usedMib !== null) this.vramPeaks.set(p.run, Math.max(this.vramPeaks.get(p.run) ?? 0, p.usedMib));
  }

  private info(run: RunView): RunInfo {
    return {
      id: run.id,
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
      vramPeakMib: this.vramPeaks.get(run.name) ?? null,
    };
  }

  listProfiles() {
    return profileInfos(this.context);
  }

  async planLaunch(request: Parameters<Backend['planLaunch']>[0]) {
    return (await planLaunch(request, this.context)).plan;
  }

  async launchRun(request: Parameters<Backend['launchRun']>[0]) {
    const { plan, run, profile } = await planLaunch(request, this.context);
    if (plan.refused) throw new Error(plan.refused);
    const launched = await this.runs.launch(run, plan.gpu, profile.drain === 'sentinel');
    await Promise.all([this.refreshGroups(), this.refreshStates()]);
    const id = await this.options.watchCell(run.cell, cellId('local', run.cell));
    const view = (await this.runs.list()).find((r) => r.id === launched.id) as RunView;
    return { run: this.info(view), cellId: id };
  }

  async listRuns() {
    return (await this.runs.list()).map((run) => this.info(run));
  }

  async stopRun(id: string) {
    const stopped = this.info(await this.runs.stop(id));
    await this.refreshStates();
    return stopped;
  }

  drainRun(id: string) {
    return this.runs.drain(id);
  }
}
