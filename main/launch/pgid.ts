import { readFileSync } from 'node:fs';

/** The process group of a pid, from /proc (Linux); null elsewhere or when the process is gone. */
export function processGroupOf(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return Number(fields[2]);
  } catch {
    return null;
  }
}
