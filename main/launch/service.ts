// UI runs: profiles, the dry run, launching on every target (this machine, SSH hosts, Slurm), the runs this
// app launched (stop, drain) and the GPU memory their processes hold.
import { join } from 'node:path';
import type { GpuReading, GpuSample } from '../../shared/machine';
import type { Backend } from '../../shared/contract';
import { listedByPattern, type LaunchRequest, type RunInfo, type RunState } from '../../shared/launch';
import { cellId, formatAddress, isLocal, parseAddress } from '../../shared/address';
import { localSetup, planLaunch, profileDirs, profileInfos, type LaunchContext } from './plan';
import { RunManager, type RunView } from './runs';
import { runChecked, type Shell } from './shell';
import { LaunchTargets } from './targets';
import { lacking, needsScript } from './needs';
import { movedCell, resumeRequest } from './resume-request';
import { runInfo } from './run-info';

export interface LaunchOptions {
  configDir: string;
  /** The package's root: shipped profiles and the CLI a demo run starts. */
  packageRoot: string;
  /** Where launch profiles put runs by default. */
  dataDir: string;
  /** A host's GPUs now ('local': this machine). */
  gpus(host: string): Promise<GpuReading[]>;
  /** An SSH host's shell once it is connected; rejects when it cannot be reached. */
  shell(host: string): Promise<Shell>;
  /**
   * Makes a launched run's folder (`ALIAS:/path` on an SSH host) watched, waiting while `starting` says so
   * for the cell `listed` (an id, or its pattern: `isListedAs`) to be listed; that cell's id once it is.
   */
  watchCell(address: string, listed: string, starting: () => boolean): Promise<string | null>;
  /** The id of the listed cell a launch lists by a pattern (`isListedAs`), once the runner has written it. */
  cellListedAs(listed: string): string | null;
  /** Told of the runs list each time it differs from the last told (a run started, changed state, ended). */
  onRuns?(runs: RunInfo[]): void;
}

/** How often launched runs are looked at for having ended unseen. */
const STATE_CHECK_MS = 2000;

type LaunchCalls = Pick<Backend, 'listProfiles' | 'planLaunch' | 'launchRun' | 'resumeRun' | 'planResume' | 'listRuns' | 'stopRun' | 'drainRun'>;

export class LaunchService implements LaunchCalls {
  private readonly runs: RunManager;
  private readonly context: LaunchContext;
  private readonly targets: LaunchTargets;
  /** Process group → launched run on this machine, refreshed as runs start; the GPU view names each process's run. */
  private groups = new Map<number, string>();
  private readonly vramPeaks = new Map<string, number>();
  private readonly endedListeners: ((run: RunInfo) => void)[] = [];
  /** Each cell's latest launched run's state, by cell id, as last looked at; who hears when one changes. */
  private cellStates = new Map<string, RunState>();
  /** Cells whose latest run is a Slurm job held in its queue for a reason (resources, priority): hours away, maybe. */
  private queued = new Set<string>();
  private readonly stateListeners: ((cells: string[]) => void)[] = [];
  private stateTimer: NodeJS.Timeout | undefined;
  /** The runs list as last told to `onRuns`. */
  private toldRuns = '';

  private constructor(private readonly options: LaunchOptions) {
    const local = localSetup(options.dataDir, join(options.packageRoot, 'out', 'cli.mjs'));
    this.targets = new LaunchTargets(options.shell, local);
    this.runs = new RunManager(join(options.configDir, 'launched.json'), (target) => this.targets.place(target), (run) => {
      this.endedListeners.forEach((listener) => listener(this.info(run)));
      void this.refreshStates();
    });
    this.context = {
      profileDirs: profileDirs(options.packageRoot, options.configDir),
      local,
      hostSetup: (host) => this.targets.hostSetup(host),
      gpus: options.gpus,
      lacks: async (target, run) => lacking(await runChecked(await this.targets.shellOf(target), needsScript(run), 'checking what the run needs')),
    };
  }

  /** `watch`: look at launched runs every 2 s (the app); the CLI looks once. */
  static async create(options: LaunchOptions, watch = true): Promise<LaunchService> {
    const service = new LaunchService(options);
    await service.refreshStates();
    if (watch) {
      // A run left running at the last start, a remote run, a Slurm job: each ends unseen by any exit event.
      service.stateTimer = setInterval(() => void service.refreshStates(), STATE_CHECK_MS);
      service.stateTimer.unref();
    }
    return service;
  }

  /** What the latest run this app launched in the cell says, if it launched one. */
  runStateOf(cellId: string): RunState | undefined {
    return this.cellStates.get(cellId);
  }

  /** Hears the cells (by id) whose launched run's state changed. */
  onCellStates(listener: (cells: string[]) => void): void {
    this.stateListeners.push(listener);
  }

  private async refreshStates(): Promise<void> {
    await this.runs.refresh();
    const views = await this.settleListed(await this.runs.list());
    this.tellRuns(views.map((run) => this.info(run)));
    this.groups = new Map(views.filter((r) => isLocal(r.host) && r.pid !== null && r.state === 'running').map((r) => [r.pid as number, r.name]));
    this.queued = new Set(views.filter((run) => run.state === 'pending' && run.seen?.job?.reason).map((run) => cellId(run.host, run.listed ?? run.cell)));
    const next = await this.runs.states();
    const changed = [...new Set([...next.keys(), ...this.cellStates.keys()])].filter((cell) => next.get(cell) !== this.cellStates.get(cell));
    this.cellStates = next;
    if (changed.length) this.stateListeners.forEach((listener) => listener(changed));
  }

  /** Each run whose runner names its own cell file (a pattern) gets its cell, once that file is listed. */
  private async settleListed(views: RunView[]): Promise<RunView[]> {
    return Promise.all(
      views.map(async (run) => {
        const found = run.listed && listedByPattern(run.listed) ? this.options.cellListedAs(cellId(run.host, run.listed)) : null;
        return found === null ? run : { ...run, listed: await this.settle(run.id, found) };
      }),
    );
  }

  /** A run that lists its cell by a pattern wrote `found` (a cell id): its cell from now on; its path. */
  private async settle(id: string, found: string): Promise<string> {
    const listed = parseAddress(found).path;
    await this.runs.settle(id, listed);
    return listed;
  }

  private tellRuns(runs: RunInfo[]): void {
    const told = JSON.stringify(runs);
    if (told === this.toldRuns) return;
    this.toldRuns = told;
    this.options.onRuns?.(runs);
  }

  close(): void {
    clearInterval(this.stateTimer);
    void this.runs.close();
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
    return runInfo(run, this.vramPeaks.get(run.name) ?? null);
  }

  listProfiles(target?: string) {
    return profileInfos(this.context, target);
  }

  async planLaunch(request: Parameters<Backend['planLaunch']>[0]) {
    return (await planLaunch(request, this.context)).plan;
  }

  launchRun(request: LaunchRequest) {
    return this.start(request, null);
  }

  /**
   * Relaunches an ended run with a resume spec in its profile's resume knob, under its own name: the
   * runner goes on in the same cell (the units the spec names, run into the same run dir).
   */
  async resumeRun(key: string, spec: string) {
    const { request, cell } = resumeRequest(await this.runs.one(key), spec);
    return this.start(request, cell);
  }

  /** The dry run of that resume: its command, GPU and refusals, nothing started. */
  async planResume(key: string, spec: string) {
    const { request, cell } = resumeRequest(await this.runs.one(key), spec);
    const { plan, run } = await planLaunch(request, this.context);
    const moved = movedCell(run.name, run.cell, cell);
    return moved === null ? plan : { ...plan, refused: moved };
  }

  /** Starts a run: into a new cell, or (`resumeCell`) into that existing one, the cell of the run it resumes. */
  private async start(request: LaunchRequest, resumeCell: string | null) {
    const { plan, run, profile } = await planLaunch(request, this.context);
    if (plan.refused) throw new Error(plan.refused);
    const moved = resumeCell === null ? null : movedCell(run.name, run.cell, resumeCell);
    if (moved !== null) throw new Error(moved);
    const start = { run, env: plan.env, submit: plan.submit, resume: resumeCell !== null };
    const view = await this.runs.launch(plan.target, start, plan.gpu, { canDrain: profile.drain === 'sentinel', resumeKnob: profile.resume_knob, resumeSpec: profile.resume_spec });
    const cell = cellId(view.host, run.listed);
    // The run has started: a failure from here on is said with it, not thrown (a retry would run it twice).
    let id: string | null = null;
    let problem = view.problem;
    try {
      await this.refreshStates();
      // A run that ended already, failed to start, or waits in a queue will not write its cell now.
      const starting = () => !this.queued.has(cell) && ['pending', 'running'].includes(this.cellStates.get(cell) ?? 'running');
      id = await this.options.watchCell(formatAddress({ host: view.host, path: run.cell }), cell, starting);
      if (id !== null && listedByPattern(run.listed)) await this.settle(view.id, id);
    } catch (error) {
      problem ??= `started, but its cell is not watched: ${(error as Error).message}`;
    }
    const latest = (await this.runs.list().catch(() => [])).find((r) => r.id === view.id) ?? view;
    return { run: this.info(latest), cellId: id, problem };
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
