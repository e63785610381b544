import { createInterface } from 'node:readline';
import { problem, type Problem } from '../../shared/model';
import type { GpuProcess, GpuReading, GpuSample } from '../../shared/machine';
import { APPS_QUERY, GPU_QUERY, parseGpus, parseProcesses } from './parse';
import { runOnce, spawnLocal, type Spawned } from '../programs';

export type { GpuSample };

export interface SamplerOptions {
  command?: string;
  /** Starts nvidia-smi with these arguments (default: here, as a child process). */
  spawn?: (args: string[]) => Spawned;
  /** Runs nvidia-smi once and returns its output (default: here, with a timeout). */
  once?: (args: string[]) => Promise<string>;
  intervalMs?: number;
  /** How often per-process memory is asked for (a separate, short-lived nvidia-smi). */
  processesEveryMs?: number;
  /** How long nvidia-smi may say nothing before it counts as stuck (default: three intervals, at least 3 s). */
  silentMs?: number;
  onSample(sample: GpuSample): void;
  onProblem(problem: Problem): void;
}

/** Lines of one round arrive together; a pause this long (or a GPU of the round again) closes the round. */
const ROUND_GAP_MS = 30;
const MAX_BACKOFF_MS = 30_000;

export const gpuQueryArgs = (intervalMs?: number) => [
  `--query-gpu=${GPU_QUERY.join(',')}`,
  '--format=csv,noheader,nounits',
  ...(intervalMs ? [`-lms`, String(intervalMs)] : []),
];
export const appsQueryArgs = [`--query-compute-apps=${APPS_QUERY.join(',')}`, '--format=csv,noheader,nounits'];

/**
 * One long-lived `nvidia-smi --query-gpu=... -lms N` per host: each round of lines is a sample. It is
 * restarted, with backoff, when it exits or falls silent; per-process memory comes from a short
 * `--query-compute-apps` every few seconds.
 */
export class GpuSampler {
  private child: Spawned | undefined;
  private stopped = false;
  private backoff = 1000;
  private round: GpuReading[] = [];
  private roundTimer: NodeJS.Timeout | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private appsTimer: NodeJS.Timeout | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private processes: GpuProcess[] = [];
  readonly command: string;
  private intervalMs: number;
  /** Times the long-lived process was (re)started. */
  starts = 0;

  /** The long-lived nvidia-smi's pid, while it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  constructor(private readonly options: SamplerOptions) {
    this.command = options.command ?? 'nvidia-smi';
    this.intervalMs = options.intervalMs ?? 1000;
  }

  /** How long nvidia-smi may say nothing at its pace before it counts as stuck. */
  private get silentMs(): number {
    return this.options.silentMs ?? Math.max(3 * this.intervalMs, 3000);
  }

  /** Samples every `intervalMs` from now on: the running nvidia-smi is replaced by one at that pace. */
  pace(intervalMs: number): void {
    if (intervalMs === this.intervalMs) return;
    this.intervalMs = intervalMs;
    const child = this.child;
    if (this.stopped || !child) return;
    // Its exit is not a failure to report: it is no longer this sampler's child.
    this.child = undefined;
    clearTimeout(this.watchdog);
    child.kill();
    this.launch();
  }

  start(): void {
    this.stopped = false;
    this.launch();
    const every = this.options.processesEveryMs ?? 10_000;
    const once = this.options.once ?? ((args: string[]) => runOnce(this.command, args));
    const poll = () =>
      once(appsQueryArgs).then(
        (text) => (this.processes = parseProcesses(text)),
        () => undefined,
      );
    void poll();
    this.appsTimer = setInterval(poll, every);
  }

  private launch(): void {
    if (this.stopped) return;
    this.starts++;
    const args = gpuQueryArgs(this.intervalMs);
    let child: Spawned;
    try {
      child = this.options.spawn ? this.options.spawn(args) : spawnLocal(this.command, args);
    } catch (error) {
      this.options.onProblem(problem(this.command, `${this.command} could not start: ${(error as Error).message}`));
      this.restartTimer = setTimeout(() => this.launch(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
      return;
    }
    this.child = child;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk).slice(-2000)));
    createInterface({ input: child.stdout }).on('line', (line) => this.line(line));
    this.armWatchdog();
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (this.child !== child) return;
      // Not startable: no output will come, so no watchdog.
      clearTimeout(this.watchdog);
      if (error.code === 'ENOENT') return this.notFound('set CELLWATCH_NVIDIA_SMI to its path if it lives elsewhere');
      if (!this.stopped) this.restartTimer = setTimeout(() => this.launch(), this.backoff);
      this.options.onProblem(problem(this.command, `${this.command} could not start: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      if (this.child !== child) return;
      clearTimeout(this.watchdog);
      if (this.stopped) return;
      // A host's shell says so with 127.
      if (code === 127) return this.notFound();
      if (code !== null || signal !== 'SIGKILL') {
        const why = code === null ? `was killed (${signal})` : `exited with code ${code}`;
        this.options.onProblem(problem(this.command, `${this.command} ${why}${stderr ? `: ${stderr.trim()}` : ''}; restarting in ${this.backoff / 1000} s`));
      }
      this.restartTimer = setTimeout(() => this.launch(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    });
  }

  /** nvidia-smi is not there: that is final, for its processes too, and a warning (a machine without a GPU is no fault). */
  private notFound(tip?: string): void {
    clearInterval(this.appsTimer);
    this.options.onProblem(problem(this.command, `${this.command} not found: this machine has no NVIDIA GPU sampler`, { severity: 'warning', tip }));
  }

  /** A sampler that says nothing for `silentMs` is stuck: kill it and start again. */
  private armWatchdog(): void {
    clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => {
      this.options.onProblem(problem(this.command, `${this.command} fell silent for ${this.silentMs / 1000} s; restarting it`));
      this.child?.kill();
    }, this.silentMs);
  }

  private line(line: string): void {
    // A killed nvidia-smi's last lines still come: a stopped sampler says nothing more.
    if (this.stopped) return;
    const [reading] = parseGpus(line);
    if (!reading) return;
    this.armWatchdog();
    this.backoff = 1000;
    // A GPU already in the round begins the next: rounds read together (a busy machine) are a sample each.
    if (this.round.some((gpu) => gpu.index === reading.index)) this.closeRound();
    this.round.push(reading);
    clearTimeout(this.roundTimer);
    this.roundTimer = setTimeout(() => this.closeRound(), ROUND_GAP_MS);
  }

  private closeRound(): void {
    clearTimeout(this.roundTimer);
    const gpus = this.round;
    this.round = [];
    this.options.onSample({ t: Date.now(), gpus, processes: this.processes });
  }

  stop(): void {
    this.stopped = true;
    [this.watchdog, this.roundTimer, this.restartTimer].forEach(clearTimeout);
    clearInterval(this.appsTimer);
    this.child?.kill();
    this.child = undefined;
  }
}
