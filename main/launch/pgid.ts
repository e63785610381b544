import { readdirSync, readFileSync } from 'node:fs';

/** The process group of a pid, from /proc (Linux); null elsewhere or when the process is gone. */
export function processGroupOf(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return Number(fields[2]);
  } catch {
    return null;
  }
}

/**
 * Whether a process of the group `pgid` is running, zombies aside (a child that died after its parent may
 * wait to be reaped by an init that is slow to): from /proc on Linux; null elsewhere.
 */
export function groupRunning(pgid: number): boolean | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  return pids.some((pid) => {
    try {
      const [state, , group] = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
      return Number(group) === pgid && state !== 'Z' && state !== 'X';
    } catch {
      return false;
    }
  });
}
