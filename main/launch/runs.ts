import { randomUUID } from 'node:crypto';
import { parseTarget, targetHost, type ResumeKind, type RunState } from '../../shared/launch';
import { cellId, isLocal } from '../../shared/address';
import { LocalPlace } from './local-place';
import { RunRegistry } from './run-registry';
import { STDERR, type LaunchedRun, type RunPlace, type Seen, type Start } from './place';
import { NotFoundError } from '../../shared/errors';

export type { LaunchedRun };

export interface RunView extends LaunchedRun {
  state: RunState;
  exitCode: number | null;
  /** The last lines of stderr of a crashed run. */
  stderrTail: string[];
  /** Why its state is as last seen (its place could not be asked); null when it is current. */
  problem: string | null;
}

/** States in which a run may still change: its place is asked about it. */
const MOVING: ReadonlySet<RunState> = new Set(['pending', 'running']);
/** How long a place (a host, a scheduler) may take to say how its runs are. */
const LOOK_TIMEOUT_MS = 15_000;

const NOT_SEEN: Seen = { state: 'ended', exitCode: null, job: null };

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms / 1000} s`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * The runs this app launched, on every target, remembered in a registry so that runs left running are
 * found again at the next start. Each target's place is asked about its runs that may still change.
 */
export class RunManager {
  private readonly registry: RunRegistry;
  private readonly local: LocalPlace;
  /** Exits heard before their run was recorded (a command that fails at once). */
  private readonly earlyExits = new Map<string, NonNullable<LaunchedRun['exit']>>();
  /** Why each target could not be asked at the last look. */
  private readonly unreachable = new Map<string, string>();
  /** Crashed runs' last stderr lines, read once: a crash is final. */
  private readonly tails = new Map<string, Promise<string[]>>();
  private looking: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  /** Closing: an exit heard from now on is not recorded (the next start finds that run ended). */
  private closed = false;

  /**
   * `placeOf`: the place of a target other than this machine. `onEnded`: hears each run seen to end while
   * this app watched it (exited, crashed, stopped), once recorded.
   */
  constructor(
    registryPath: string,
    private readonly placeOf: (target: string) => RunPlace = (target) => {
      throw new Error(`no launch target ${target} here`);
    },
    private readonly onEnded: (run: RunView) => void = () => undefined,
  ) {
    this.registry = new RunRegistry(registryPath);
    this.local = new LocalPlace((id, exit) => {
      if (this.closed) return;
      const run = this.registry.runs.find((r) => r.id === id);
      if (!run) return void this.earlyExits.set(id, exit);
      run.exit = exit;
      void this.refresh();
    });
  }

  private place(target: string): RunPlace {
    return isLocal(target) ? this.local : this.placeOf(target);
  }

  /** Starts the run and records it; `how` says whether its profile drains and which knob takes a resume spec. */
  async launch(target: string, start: Start, gpu: number | null, how: { canDrain?: boolean; resumeKnob?: string; resumeSpec?: ResumeKind } = {}): Promise<RunView> {
    await this.refresh();
    const { run } = start;
    const host = targetHost(parseTarget(target));
    if (this.registry.runs.some((r) => r.name === run.name && r.host === host && MOVING.has(r.seen?.state ?? 'ended'))) {
      throw new Error(`a run named ${run.name} is already running`);
    }
    const id = randomUUID();
    // A resume appends to the logs the cell's last launch made, and to no other file put in their place.
    const before = start.resume ? this.registry.runs.findLast((r) => r.host === host && r.cell === run.cell) : undefined;
    const started = await this.place(target).start(id, before?.logs ? { ...start, logs: before.logs } : start);
    const launched: LaunchedRun = {
      id, name: run.name, profile: run.profile, format: run.format, target, host, cell: run.cell, ...(run.listed !== run.cell ? { listed: run.listed } : {}), command: run.command,
      ...started, gpu, startedAt: Date.now(), canDrain: how.canDrain ?? false, values: run.values, ...(how.resumeKnob ? { resumeKnob: how.resumeKnob, resumeSpec: how.resumeSpec ?? 'episodes' } : {}),
      seen: { state: started.job ? 'pending' : 'running', exitCode: null, job: started.job ? { id: started.job, state: 'PENDING', reason: null, node: null, exitCode: null } : null },
    };
    const early = this.earlyExits.get(id);
    this.earlyExits.delete(id);
    if (early) launched.exit = early;
    this.registry.runs.push(launched);
    // Started is started: what fails from here on is said with the run, never as a failed launch (a retry
    // would run it twice). Unsaved, it is still known, and stoppable, in this process.
    const unsaved = await this.registry.save().then(
      () => null,
      (error: Error) => `started, but not saved in ${this.registry.path} (the next start will not know it): ${error.message}`,
    );
    await this.refresh().catch(() => undefined);
    const view = await this.view(launched);
    return unsaved ? { ...view, problem: unsaved } : view;
  }

  /**
   * The app is closing: exits heard from now on are not recorded, so nothing is written after the look
   * under way, which this waits for.
   */
  close(): Promise<void> {
    this.closed = true;
    return (this.queued ?? this.looking ?? Promise.resolve()).catch(() => undefined);
  }

  /** Asks each place about its runs that may still change; one look at a time, a request meanwhile gets the next. */
  refresh(): Promise<void> {
    if (!this.looking) {
      this.looking = this.look().finally(() => (this.looking = null));
      return this.looking;
    }
    this.queued ??= this.looking.then(() => {
      this.queued = null;
      return this.refresh();
    });
    return this.queued;
  }

  private async look(): Promise<void> {
    await this.registry.load();
    const open = new Map<string, LaunchedRun[]>();
    for (const run of this.registry.runs) {
      if (!isLocal(run.target) && run.seen && !MOVING.has(run.seen.state)) continue;
      open.set(run.target, [...(open.get(run.target) ?? []), run]);
    }
    const ended: LaunchedRun[] = [];
    let changed = false;
    await Promise.all(
      [...open].map(async ([target, runs]) => {
        try {
          const seen = await withTimeout(this.place(target).look(runs), LOOK_TIMEOUT_MS, `asking ${target} about its runs`);
          this.unreachable.delete(target);
          for (const run of runs) {
            const next = seen.get(run.id) ?? NOT_SEEN;
            const state = run.stoppedByUser && !MOVING.has(next.state) ? 'stopped' : next.state;
            const before = run.seen;
            run.seen = { ...next, state };
            if (JSON.stringify(before) !== JSON.stringify(run.seen)) changed = true;
            if (before && MOVING.has(before.state) && !MOVING.has(state)) ended.push(run);
            if (!MOVING.has(state)) run.endedAt ??= run.exit?.at ?? Date.now();
          }
        } catch (error) {
          this.unreachable.set(target, (error as Error).message);
        }
      }),
    );
    if (changed) await this.registry.save().catch(() => undefined);
    for (const run of ended) this.onEnded(await this.view(run));
  }

  async list(): Promise<RunView[]> {
    await this.registry.load();
    return Promise.all(this.registry.runs.map((run) => this.view(run)));
  }

  private async view(run: LaunchedRun): Promise<RunView> {
    const seen = run.seen ?? NOT_SEEN;
    const problem = MOVING.has(seen.state) ? (this.unreachable.get(run.target) ?? null) : null;
    return {
      ...run,
      state: seen.state,
      exitCode: seen.exitCode ?? run.exit?.code ?? null,
      stderrTail: seen.state === 'crashed' ? await this.stderrTail(run) : [],
      problem: problem && `state as last seen: ${problem}`,
    };
  }

  private stderrTail(run: LaunchedRun): Promise<string[]> {
    let tail = this.tails.get(run.id);
    if (!tail) {
      tail = this.place(run.target).tail(run, STDERR, 50);
      this.tails.set(run.id, tail);
      // Not kept when it could not be read (a host unreachable): asked again next time.
      tail.catch(() => this.tails.delete(run.id));
    }
    return tail.catch(() => []);
  }

  /** The state of each cell's latest launched run, by cell id: no file read. */
  async states(): Promise<Map<string, RunState>> {
    await this.registry.load();
    // In launch order: a cell's later run replaces its earlier one.
    return new Map(this.registry.runs.map((run) => [cellId(run.host, run.listed ?? run.cell), (run.seen ?? NOT_SEEN).state]));
  }

  /** The file a run that lists its cell by a pattern (Inspect's log) turned out to write: its cell from now on. */
  async settle(id: string, listed: string): Promise<void> {
    await this.registry.load();
    const run = this.registry.runs.find((r) => r.id === id);
    if (!run || run.listed === listed) return;
    run.listed = listed;
    await this.registry.save();
  }

  /** Runs by id, or by a unique start of it, or by name (the latest of that name). */
  private async find(key: string): Promise<LaunchedRun> {
    await this.registry.load();
    const run =
      this.registry.runs.find((r) => r.id === key) ??
      (this.registry.runs.filter((r) => r.id.startsWith(key)).length === 1 ? this.registry.runs.find((r) => r.id.startsWith(key)) : undefined) ??
      this.registry.runs.findLast((r) => r.name === key);
    if (!run) throw new NotFoundError(`no launched run ${key}`);
    return run;
  }

  /** A run by id, a unique start of it, or its name, as it is now. */
  async one(key: string): Promise<RunView> {
    const run = await this.find(key);
    await this.refresh();
    return this.view(run);
  }

  /** SIGTERM to the run's process group, SIGKILL to what is left after `graceMs`; scancel for a Slurm job. */
  async stop(key: string, graceMs = 10_000): Promise<RunView> {
    const run = await this.find(key);
    await this.refresh();
    if (MOVING.has(run.seen?.state ?? 'ended')) {
      run.stoppedByUser = true;
      await this.registry.save();
      await this.place(run.target).stop(run, graceMs);
      await this.refresh();
    }
    return this.view(run);
  }

  /** Asks a run whose profile drains to finish its episodes; returns what it printed since. */
  async drain(key: string, waitMs = 1500): Promise<string[]> {
    const run = await this.find(key);
    if (!run.canDrain) throw new Error(`${run.name} was launched with profile ${run.profile}, which has no drain`);
    await this.refresh();
    if (run.seen?.state !== 'running') throw new Error(`${run.name} is not running`);
    return this.place(run.target).drain(run, waitMs);
  }
}
