import { hostWords, LOCAL } from '../../shared/address';
import { execLocal, type ProgramResult } from '../programs';
import type { HostContext } from '../place/context';

/** Where launch scripts run: `sh` on this machine, or on an SSH host over its connection. */
export interface Shell {
  /** LOCAL or the host's alias: how messages name it. */
  readonly host: string;
  run(script: string): Promise<ProgramResult>;
}

/** A place's `sh`: the script run by `sh -c`, whatever the login shell of the host's user is. */
export const shellOn = (context: Pick<HostContext, 'host' | 'exec'>): Shell => ({ host: context.host, run: (script) => context.exec('sh', ['-c', script]) });

/** `sh -c` here; a script that cannot start at all rejects. */
export const localShell: Shell = shellOn({ host: LOCAL, exec: execLocal });

/** A script that failed, as an error naming what it did, the host, and the last lines it printed. */
export function failure(shell: Shell, what: string, result: ProgramResult): Error {
  const said = (result.stderr.trim() || result.stdout.trim()).split('\n').slice(-3).join(' / ');
  return new Error(`${what} on ${hostWords(shell.host)} failed (exit ${result.code ?? 'by signal'})${said ? `: ${said}` : ''}`);
}

/** The script's stdout; a non-zero exit is a `failure`. */
export async function runChecked(shell: Shell, script: string, what: string): Promise<string> {
  const result = await shell.run(script);
  if (result.code !== 0) throw failure(shell, what, result);
  return result.stdout;
}
