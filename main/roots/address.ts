import { homedir } from 'node:os';
import { isAbsolute, join, posix, resolve } from 'node:path';
import { formatAddress, isLocal, parseAddress } from '../../shared/address';

/**
 * A root the user typed, as the key it is kept under: `ALIAS:/abs/path` (or `ssh://ALIAS/abs/path`) on
 * an SSH host; else a local path, `~` being their home (a relative path would depend on where the core started).
 */
export function rootAddress(text: string): string {
  if (text.includes('\0')) throw new Error('runs root has a NUL byte in it');
  const address = parseAddress(text.trim());
  if (!isLocal(address.host)) return formatAddress({ host: address.host, path: posix.resolve(address.path) });
  const expanded = text === '~' || text.startsWith('~/') ? join(homedir(), text.slice(1)) : text;
  if (!isAbsolute(expanded)) throw new Error(`runs root must be an absolute path (or ALIAS:/path on an SSH host), not ${JSON.stringify(text)}`);
  return resolve(expanded);
}

/** A root named on the command line: a path here is taken from the working folder. */
export const commandLineRoot = (text: string) => (isLocal(parseAddress(text).host) ? resolve(text) : text);
