import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunState } from '../../shared/launch';
import { NotFoundError } from '../errors';
import { StateFile } from '../state-file';
import type { RenderedRun } from './profiles';

export interface LaunchedRun {
  /** Unique for every launch, so a stop or drain reaches exactly this run. */
  id: string;
  name: string;
  profile: string;
  format: RenderedRun['format'];
  cell: string;
  command: string[];
  pid: number;
  /** The process's start time (clock ticks since boot, from /proc): a pid reused by another process has another. */
  pidStart: string | null;
  gpu: number | null;
  startedAt: number;
  canDrain: boolean;
  /** Set when the process ended while Cellwatch watched it. */
  exit?: { code: number | null; signal: string | null; at: number };
  stoppedByUser?: boolean;
}


export interface RunView extends LaunchedRun {
  state: RunState;
  /** The last lines of stderr of a crashed run. */
  stderrTail: string[];
}

const STDOUT = 'stdout.log';
const STDERR = 'stderr.log';

/** When the process with this pid started (field 22 of /proc/PID/stat); null where there is no /proc. */
function startTime(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/**
 * Whether the run's process group still lives (its leader may have exited while its children go on), and
 * never when its pid now belongs to a process that started at another time (the pid was reused).
 */
function alive(run: LaunchedRun): boolean {
  if (run.pidStart !== null && process.platform === 'linux') {
    const now = startTime(run.pid);
    // The leader may have exited while its group lives on: then the group's other processes answer below.
    if (now !== null && now !== run.pidStart) return false;
  }
  try {
    process.kill(-run.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function tail(file: string, lines: number): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter((l) => l !== '').slice(-lines);
}

function stateOf(run: LaunchedRun): RunState {
  if (alive(run)) return 'running';
  if (run.stoppedByUser) return 'stopped';
  if (!run.exit) return 'ended';
  return run.exit.code === 0 ? 'exited' : 'crashed';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The runs this app launched: each in its own process group, its stdout and stderr appended to files in
 * its cell, remembered in a registry so that runs left running are found again, by pid, at the next start.
 */
export class RunManager {
  private runs: LaunchedRun[] = [];
  private loaded = false;
  private readonly file: StateFile;

  /** `onEnded`: hears each run whose process ended while this app watched it, once its exit is recorded. */
  constructor(
    private readonly registry: string,
    private readonly onEnded: (run: RunView) => void = () => undefined,
  ) {
    this.file = new StateFile(registry);
  }

  private async load(): Promise<void> {
    if (this.loaded) return;
    this.loaded = true;
    try {
      // Runs saved by an older Cellwatch have no id and no start time.
      this.runs = (JSON.parse(await readFile(this.registry, 'utf8')) as LaunchedRun[]).map((r) => ({ ...r, id: r.id ?? randomUUID(), pidStart: r.pidStart ?? null }));
    } catch {
      this.runs = [];
    }
  }

  private save(): Promise<void> {
    return this.file.write(JSON.stringify(this.runs, null, 1));
  }

  async launch(run: RenderedRun, gpu: number | null, canDrain = false): Promise<LaunchedRun> {
    await this.load();
    if (this.runs.some((r) => r.name === run.name && alive(r))) throw new Error(`a run named ${run.name} is already running`);
    await mkdir(run.cell, { recursive: true });
    await mkdir(run.cwd, { recursive: true });
    const out = await open(join(run.cell, STDOUT), 'a');
    const err = await open(join(run.cell, STDERR), 'a');
    const [command, ...args] = run.command as [string, ...string[]];
    const env = { ...process.env, ...run.env, ...(gpu === null ? {} : { CUDA_VISIBLE_DEVICES: String(gpu) }) };
    const child = spawn(command, args, { cwd: run.cwd, env, detached: true, stdio: ['ignore', out.fd, err.fd] });
    // Listened for at once: a command that exits at once may exit before the run is recorded.
    const recorded: { run?: LaunchedRun; exit?: LaunchedRun['exit'] } = {};
    child.once('exit', (code, signal) => {
      recorded.exit = { code, signal, at: Date.now() };
      if (!recorded.run) return;
      const ended = recorded.run;
      ended.exit = recorded.exit;
      this.save()
        .catch(() => undefined)
        .then(() => this.view(ended))
        .then((view) => this.onEnded(view));
    });
    const started = new Promise<number>((resolve, reject) => {
      child.once('spawn', () => resolve(child.pid as number));
      child.once('error', (e) => reject(new Error(`could not start ${command}: ${e.message}`)));
    });
    const pid = await started.finally(() => Promise.all([out.close(), err.close()]));
    const launched: LaunchedRun = {
      id: randomUUID(), name: run.name, profile: run.profile, format: run.format, cell: run.cell, command: run.command,
      pid, pidStart: startTime(pid), gpu, startedAt: Date.now(), canDrain, ...(recorded.exit ? { exit: recorded.exit } : {}),
    };
    recorded.run = launched;
    child.unref();
    this.runs.push(launched);
    await this.save();
    if (launched.exit) void this.view(launched).then((view) => this.onEnded(view));
    return launched;
  }

  async list(): Promise<RunView[]> {
    await this.load();
    return Promise.all(this.runs.map((run) => this.view(run)));
  }

  private async view(run: LaunchedRun): Promise<RunView> {
    const state = stateOf(run);
    return { ...run, state, stderrTail: state === 'crashed' ? await tail(join(run.cell, STDERR), 50) : [] };
  }

  /** The state of each cell's latest launched run, by cell folder: no file read. */
  async states(): Promise<Map<string, RunState>> {
    await this.load();
    // In launch order: a cell's later run replaces its earlier one.
    return new Map(this.runs.map((run) => [run.cell, stateOf(run)]));
  }

  private async find(id: string): Promise<LaunchedRun> {
    await this.load();
    const run = this.runs.find((r) => r.id === id);
    if (!run) throw new NotFoundError(`no launched run ${id}`);
    return run;
  }

  /** SIGTERM to the run's process group; SIGKILL to what is left after `graceMs`. */
  async stop(id: string, graceMs = 10_000): Promise<RunView> {
    const run = await this.find(id);
    if (alive(run)) {
      run.stoppedByUser = true;
      process.kill(-run.pid, 'SIGTERM');
      const deadline = Date.now() + graceMs;
      while (alive(run) && Date.now() < deadline) await sleep(50);
      if (alive(run)) process.kill(-run.pid, 'SIGKILL');
      while (alive(run)) await sleep(20);
      await this.save();
    }
    return this.view(run);
  }

  /** Asks a run whose profile drains to finish its episodes: DRAIN in the cell, SIGUSR1; returns what it printed since. */
  async drain(id: string, waitMs = 1500): Promise<string[]> {
    const run = await this.find(id);
    if (!run.canDrain) throw new Error(`${run.name} was launched with profile ${run.profile}, which has no drain`);
    if (!alive(run)) throw new Error(`${run.name} is not running`);
    const before = (await tail(join(run.cell, STDOUT), 100_000)).length;
    await writeFile(join(run.cell, 'DRAIN'), '');
    process.kill(-run.pid, 'SIGUSR1');
    await sleep(waitMs);
    return (await tail(join(run.cell, STDOUT), 100_000)).slice(before);
  }
}
