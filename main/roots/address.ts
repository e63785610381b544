import { homedir } from 'node:os';
import { isAbsolute, join, posix, resolve } from 'node:path';
import { parseRemote } from '../ssh/config';

/**
 * A root the user typed, as the key it is kept under: `ALIAS:/abs/path` (or `ssh://ALIAS/abs/path`) on
 * an SSH host; else a local path, `~` being their home (a relative path would depend on where the core started).
 */
export function rootAddress(path: string): string {
  if (path.includes('\0')) throw new Error('runs root has a NUL byte in it');
  const remote = parseRemote(path.trim());
  if (remote) return `${remote.alias}:${posix.resolve(remote.path)}`;
  const expanded = path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
  if (!isAbsolute(expanded)) throw new Error(`runs root must be an absolute path (or ALIAS:/path on an SSH host), not ${JSON.stringify(path)}`);
  return resolve(expanded);
}

/** The host (null: this machine) and path of a root address. */
export function rootLocation(address: string): { alias: string | null; path: string } {
  const remote = parseRemote(address);
  return remote ? { alias: remote.alias, path: remote.path } : { alias: null, path: address };
}
