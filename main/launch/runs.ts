import { spawn } from 'node:child_process';
import { mkdir, open, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { RunState } from '../../shared/launch';
import type { RenderedRun } from './profiles';

export interface LaunchedRun {
  name: string;
  profile: string;
  format: RenderedRun['format'];
  cell: string;
  command: string[];
  pid: number;
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

function alive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function tail(file: string, lines: number): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter((l) => l !== '').slice(-lines);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The runs this app launched: each in its own process group, its stdout and stderr appended to files in
 * its cell, remembered in a registry so that runs left running are found again, by pid, at the next start.
 */
export class RunManager {
  private runs: LaunchedRun[] = [];
  private loaded = false;

  constructor(private readonly registry: string) {}

  private async load(): Promise<void> {
    if (this.loaded) return;
    this.loaded = true;
    try {
      this.runs = JSON.parse(await readFile(this.registry, 'utf8')) as LaunchedRun[];
    } catch {
      this.runs = [];
    }
  }

  private async save(): Promise<void> {
    await mkdir(dirname(this.registry), { recursive: true });
    await writeFile(`${this.registry}.tmp`, JSON.stringify(this.runs, null, 1));
    await rename(`${this.registry}.tmp`, this.registry);
  }

  async launch(run: RenderedRun, gpu: number | null, canDrain = false): Promise<LaunchedRun> {
    await this.load();
    if (this.runs.some((r) => r.name === run.name && alive(r.pid))) throw new Error(`a run named ${run.name} is already running`);
    await mkdir(run.cell, { recursive: true });
    await mkdir(run.cwd, { recursive: true });
    const out = await open(join(run.cell, STDOUT), 'a');
    const err = await open(join(run.cell, STDERR), 'a');
    const [command, ...args] = run.command as [string, ...string[]];
    const env = { ...process.env, ...run.env, ...(gpu === null ? {} : { CUDA_VISIBLE_DEVICES: String(gpu) }) };
    const child = spawn(command, args, { cwd: run.cwd, env, detached: true, stdio: ['ignore', out.fd, err.fd] });
    const started = new Promise<number>((resolve, reject) => {
      child.once('spawn', () => resolve(child.pid as number));
      child.once('error', (e) => reject(new Error(`could not start ${command}: ${e.message}`)));
    });
    const pid = await started.finally(() => Promise.all([out.close(), err.close()]));
    const launched: LaunchedRun = { name: run.name, profile: run.profile, format: run.format, cell: run.cell, command: run.command, pid, gpu, startedAt: Date.now(), canDrain };
    child.once('exit', (code, signal) => {
      launched.exit = { code, signal, at: Date.now() };
      void this.save();
    });
    child.unref();
    this.runs.push(launched);
    await this.save();
    return launched;
  }

  async list(): Promise<RunView[]> {
    await this.load();
    return Promise.all(this.runs.map((run) => this.view(run)));
  }

  private async view(run: LaunchedRun): Promise<RunView> {
    const running = !run.exit && alive(run.pid);
    const crashed = !running && run.exit !== undefined && !run.stoppedByUser && run.exit.code !== 0;
    const state: RunState = running ? 'running' : run.stoppedByUser ? 'stopped' : crashed ? 'crashed' : run.exit ? 'exited' : 'ended';
    return { ...run, state, stderrTail: crashed ? await tail(join(run.cell, STDERR), 50) : [] };
  }

  private async find(name: string): Promise<LaunchedRun> {
    await this.load();
    const run = this.runs.find((r) => r.name === name);
    if (!run) throw new Error(`no launched run named ${name}`);
    return run;
  }

  /** SIGTERM to the run's process group; SIGKILL to what is left after `graceMs`. */
  async stop(name: string, graceMs = 10_000): Promise<RunView> {
    const run = await this.find(name);
    if (alive(run.pid)) {
      run.stoppedByUser = true;
      process.kill(-run.pid, 'SIGTERM');
      const deadline = Date.now() + graceMs;
      while (alive(run.pid) && Date.now() < deadline) await sleep(50);
      if (alive(run.pid)) process.kill(-run.pid, 'SIGKILL');
      while (alive(run.pid)) await sleep(20);
      await this.save();
    }
    return this.view(run);
  }

  /** Asks a coding-agent run to finish its episodes: DRAIN in the cell, SIGUSR1; returns what it printed since. */
  async drain(name: string, waitMs = 1500): Promise<string[]> {
    const run = await this.find(name);
    if (!run.canDrain) throw new Error(`${name} was launched with profile ${run.profile}, which has no drain`);
    if (!alive(run.pid)) throw new Error(`${name} is not running`);
    const before = (await tail(join(run.cell, STDOUT), 100_000)).length;
    await writeFile(join(run.cell, 'DRAIN'), '');
    process.kill(-run.pid, 'SIGUSR1');
    await sleep(waitMs);
    return (await tail(join(run.cell, STDOUT), 100_000)).slice(before);
  }
}
