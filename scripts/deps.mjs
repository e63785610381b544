// Installs dependencies on a fresh clone. Uses only Node built-ins: it runs before node_modules exists.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * Installed when npm's own record of the last install (node_modules/.package-lock.json, written at the end
 * of every install) is newer than package.json and the lockfile. Comparing package lists instead never
 * matches: other platforms' optional packages are in the lockfile but never installed.
 */
export function installed(root = ROOT) {
  const marker = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(marker)) return false;
  const at = statSync(marker).mtimeMs;
  return ['package.json', 'package-lock.json'].every((file) => statSync(join(root, file)).mtimeMs <= at);
}

function npmCi(env) {
  return spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } }).status === 0;
}

/** npm ci when node_modules is missing or stale; again without Electron's binary when its download fails. */
export function ensureDependencies() {
  if (installed()) return;
  console.log('Installing dependencies (npm ci)...');
  if (npmCi({})) return;
  console.log('npm ci failed; retrying with ELECTRON_SKIP_BINARY_DOWNLOAD=1 (the app then runs in the browser).');
  if (!npmCi({ ELECTRON_SKIP_BINARY_DOWNLOAD: '1' })) {
    console.error('Could not install dependencies: see the npm output above.');
    process.exit(1);
  }
}

/** The Electron binary's path, or null when it was not downloaded. */
export function electronBinary() {
  const dir = join(ROOT, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
  return result.status ?? 1;
}
