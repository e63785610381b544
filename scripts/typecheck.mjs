// `npm run typecheck`: each runtime's project checked by TypeScript 7's native compiler (the same diagnostics as 5.9's for a
// quarter of its CPU: 12 s against 44 here). `npm test` runs the same checks (TYPECHECKS), beside its other stages.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { packageBin, ROOT } from './deps.mjs';

/** Both TypeScripts ship a `tsc` bin (5.9 stays for typescript-eslint): the native one is named by its path. */
const TSC = packageBin('typescript-native', 'bin/tsc');

/** Each check: its name, and its command. */
export const TYPECHECKS = ['node', 'web', 'tools'].map((project) => [`typecheck ${project}`, [...TSC, '-p', `tsconfig.${project}.json`]]);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [, [command, ...args]] of TYPECHECKS) {
    const { status } = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
    if (status !== 0) process.exit(status ?? 1);
  }
}
