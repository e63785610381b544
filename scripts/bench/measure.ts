import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

export interface Measured {
  wallMs: number;
  peakRssMb: number | null;
  /** What it printed, or '' where not kept. */
  stdout: string;
  /** How many bytes it printed. */
  stdoutBytes: number;
  stderr: string;
}

/**
 * Runs a command to its end; with `rss`, a Node command reports its own peak RSS. With `keep: false` its
 * output is read and counted, not kept: a reader decoding and keeping 50 MB spends its own time on the
 * cores the command runs on, as `> file` does not.
 */
export function measure(command: string, args: string[], options: { rss?: boolean; shell?: boolean; env?: NodeJS.ProcessEnv; keep?: boolean } = {}): Promise<Measured> {
  const fullArgs = options.rss ? ['--import', join(ROOT, 'scripts/bench/rss.mjs'), ...args] : args;
  const started = performance.now();
  const child = spawn(command, fullArgs, { cwd: ROOT, shell: options.shell ?? false, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
  let stdout = '';
  let stdoutBytes = 0;
  let stderr = '';
  const keep = options.keep ?? true;
  child.stdout.on('data', (chunk: Buffer) => {
    stdoutBytes += chunk.length;
    if (keep) stdout += chunk;
  });
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      if (code !== 0) return reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr}`));
      const rss = /PEAK_RSS_KB=(\d+)/.exec(stderr);
      resolve({ wallMs, peakRssMb: rss ? Number(rss[1]) / 1024 : null, stdout, stdoutBytes, stderr });
    });
  });
}

/** The middle value (the upper of the two middle ones for an even count). */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

export function row(label: string, value: string, note = ''): string {
  return `${label.padEnd(34)} ${value.padStart(12)}  ${note}`;
}

/** Clock ticks a second in /proc's times on Linux. */
const TICK = 100;

/**
 * CPU seconds (user + system, every thread) a process has used, from /proc; with `children`, those of its
 * children it has waited for too (and theirs, as each waited for its own).
 */
export function cpuSeconds(pid: number | 'self', children = false): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ').map(Number);
  // After the command name: utime is field 14, stime 15, cutime 16, cstime 17 (1-based, counting pid as 1).
  const [utime, stime, cutime, cstime] = fields.slice(11, 15) as [number, number, number, number];
  return (utime + stime + (children ? cutime + cstime : 0)) / TICK;
}

/** CPU seconds the whole machine's cores have been busy since it started (every process's), from /proc/stat. */
export function machineBusySeconds(): number {
  // user nice system idle iowait irq softirq steal (guest time is counted in user already)
  const [user, nice, system, , , irq, softirq, steal] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] as string).trim().split(/\s+/).slice(1).map(Number) as number[];
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) / TICK;
}
