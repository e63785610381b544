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

/** Runs a program once, with a timeout; resolves to its stdout or rejects saying what failed. */
export function runOnce(command: string, args: string[], timeoutMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: timeoutMs, windowsHide: true }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') reject(new Error(`${command} not found on this machine`));
      else if (error.killed) reject(new Error(`${command} gave no answer within ${timeoutMs} ms`));
      else reject(new Error(`${command} failed: ${(stderr || error.message).trim()}`));
    });
  });
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
