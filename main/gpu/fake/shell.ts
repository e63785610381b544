import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes a shell stand-in for nvidia-smi into `dir` that replays one --query-gpu capture: once, or every
 * -lms milliseconds; no compute processes. It needs no environment, so it also runs in an SSH session,
 * and costs to start about what the C nvidia-smi does. Each start's arguments go to `dir`/nvidia-smi.log.
 */
export function shellNvidiaSmi(dir: string, capture: string): string {
  const file = join(dir, 'nvidia-smi');
  writeFileSync(
    file,
    [
      '#!/bin/sh',
      `echo "$*" >> '${join(dir, 'nvidia-smi.log')}'`,
      'ms=1000; prev=',
      'for a; do [ "$prev" = -lms ] && ms=$a; prev=$a; done',
      'case "$*" in',
      '  *--query-compute-apps*) exit 0 ;;',
      `  *-lms*) while :; do cat '${capture}'; sleep $((ms / 1000)).$((ms % 1000 / 100)); done ;;`,
      `  *) cat '${capture}' ;;`,
      'esac',
      '',
    ].join('\n'),
  );
  chmodSync(file, 0o755);
  return file;
}
