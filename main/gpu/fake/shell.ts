import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes a shell stand-in for nvidia-smi into `dir` that replays one --query-gpu capture: once, or every
 * second with -lms; no compute processes. It needs no environment, so it also runs in an SSH session,
 * and costs to start about what the C nvidia-smi does.
 */
export function shellNvidiaSmi(dir: string, capture: string): string {
  const file = join(dir, 'nvidia-smi');
  writeFileSync(
    file,
    `#!/bin/sh\ncase "$*" in\n  *--query-compute-apps*) exit 0 ;;\n  *-lms*) while :; do cat '${capture}'; sleep 1; done ;;\n  *) cat '${capture}' ;;\nesac\n`,
  );
  chmodSync(file, 0o755);
  return file;
}
