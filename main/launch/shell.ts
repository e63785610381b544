import { spawn } from 'node:child_process';
import { shellQuote } from '../../shared/quote';
import { hostWords, LOCAL } from '../../shared/address';

export interface ShellResult {
  stdout: string;
  stderr: string;
  code: number | null;
}

/** Where launch scripts run: `sh` on this machine, or an exec channel on an SSH host. */
export interface Shell {
  /** 'local' or the host's alias: how messages name it. */
  readonly host: string;
  run(script: string): Promise<ShellResult>;
}

/** `sh -c` here; a script that cannot start at all rejects. */
export const localShell: Shell = {
  host: LOCAL,
  run: (script) =>
    new Promise((resolve, reject) => {
      const child = spawn('sh', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
      child.on('error', (error) => reject(new Error(`could not run sh: ${error.message}`)));
      child.once('close', (code) => resolve({ stdout, stderr, code }));
    }),
};

/** A script that failed, as an error naming what it did, the host, and the last lines it printed. */
export function failure(shell: Shell, what: string, result: ShellResult): Error {
  const said = (result.stderr.trim() || result.stdout.trim()).split('\n').slice(-3).join(' / ');
  return new Error(`${what} on ${hostWords(shell.host)} failed (exit ${result.code ?? 'by signal'})${said ? `: ${said}` : ''}`);
}

/** The script's stdout; a non-zero exit is a `failure`. */
export async function runChecked(shell: Shell, script: string, what: string): Promise<string> {
  const result = await shell.run(script);
  if (result.code !== 0) throw failure(shell, what, result);
  return result.stdout;
}

/** An SSH host's exec channel, the script run by `sh` whatever the login shell of the host's user is. */
export function remoteShell(host: string, exec: (command: string) => Promise<ShellResult>): Shell {
  return { host, run: (script) => exec(`sh -c ${shellQuote([script])}`) };
}
