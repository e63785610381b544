// Programs run on this machine for a place's work (nvidia-smi, mostly): one run with a timeout, or a
// long-running one read line by line. An SSH host's counterparts run over its connection (ssh/host.ts).
import { execFile, spawn, type ChildProcess } from 'node:child_process';

/** A running program: a local child process, or an exec channel on an SSH host. */
export interface Spawned {
  /** The local process's pid; absent for a remote one. */
  pid?: number;
  stdout: NodeJS.ReadableStream;
  stderr: NodeJS.ReadableStream | null;
  kill(): void;
  on(event: 'exit', listener: (code: number | null, signal: string | null) => void): unknown;
  on(event: 'error', listener: (error: NodeJS.ErrnoException) => void): unknown;
}

/** What a program printed, and how it exited (null: by a signal). */
export interface ProgramResult {
  stdout: string;
  stderr: string;
  code: number | null;
}

/** Runs a program here once; rejects only when it cannot run at all (not found) or gives no answer within `timeoutMs`. */
export function execLocal(command: string, args: string[], timeoutMs?: number): Promise<ProgramResult> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { windowsHide: true, maxBuffer: 64 << 20, ...(timeoutMs ? { timeout: timeoutMs } : {}) }, (error, stdout, stderr) => {
      const failed = error as (NodeJS.ErrnoException & { killed?: boolean; code?: unknown }) | null;
      if (failed?.code === 'ENOENT') return reject(new Error(`${command} not found on this machine`));
      if (failed?.killed) return reject(new Error(`${command} gave no answer within ${timeoutMs} ms`));
      resolve({ stdout, stderr, code: failed ? (typeof failed.code === 'number' ? failed.code : null) : 0 });
    });
  });
}

/** A program's stdout; a non-zero exit rejects with its last lines, naming where it ran. */
export function outputOf(result: ProgramResult, command: string, where: string): string {
  if (result.code === 0) return result.stdout;
  throw new Error(`${command} on ${where} failed (exit ${result.code ?? 'by signal'}): ${(result.stderr || result.stdout).trim().split('\n').slice(-2).join(' / ')}`);
}

/** Runs a program here once (5 s at most): its stdout, or a rejection saying what failed. */
export async function runOnce(command: string, args: string[], timeoutMs = 5000): Promise<string> {
  return outputOf(await execLocal(command, args, timeoutMs), command, 'this machine');
}

/** A long-running program here, killed with SIGKILL (nvidia-smi -lms ignores nothing else reliably). */
export function spawnLocal(command: string, args: string[]): Spawned {
  const child: ChildProcess = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
  return {
    pid: child.pid,
    stdout: child.stdout as NodeJS.ReadableStream,
    stderr: child.stderr,
    kill: () => child.kill('SIGKILL'),
    on: (event: 'exit' | 'error', listener: never) => child.on(event, listener),
  } as Spawned;
}
