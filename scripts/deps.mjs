// Installs dependencies on a fresh clone. Uses only Node built-ins: it runs before node_modules exists.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The command that runs a package's script (`file` of `pkg` in node_modules) with this Node. */
export const packageBin = (pkg, file) => [process.execPath, join(ROOT, 'node_modules', pkg, file)];

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

/**
 * Whether Electron's binary can be downloaded from where @electron/get fetches it: one HEAD request (8 s at
 * most), so a machine that cannot reach it is installed once, without it, rather than twice. Where a mirror
 * or a proxy is configured the download is tried as usual.
 */
function electronDownloadReachable() {
  const env = process.env;
  if (env.ELECTRON_MIRROR || env.HTTPS_PROXY || env.https_proxy || env.npm_config_proxy || env.npm_config_https_proxy) return true;
  const probe = `const r = require('node:https').request(process.argv[1], { method: 'HEAD', timeout: 8000 }, (res) => process.exit(res.statusCode < 400 ? 0 : 1));
r.on('timeout', () => process.exit(1)); r.on('error', () => process.exit(1)); r.end();`;
  const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devDependencies?.electron;
  const url = `https://github.com/electron/electron/releases/download/v${version}/SHASUMS256.txt`;
  return spawnSync(process.execPath, ['-e', probe, url], { timeout: 10_000 }).status === 0;
}

/** npm ci when node_modules is missing or stale; without Electron's binary where its download cannot work. */
export function ensureDependencies() {
  if (installed()) return;
  if (!process.env.ELECTRON_SKIP_BINARY_DOWNLOAD && !electronDownloadReachable()) {
    console.log("Installing dependencies (npm ci) without Electron's binary: its download (github.com) cannot be reached from here; the app then runs in the browser.");
    if (npmCi({ ELECTRON_SKIP_BINARY_DOWNLOAD: '1' })) return;
    console.error('Could not install dependencies: see the npm output above.');
    process.exit(1);
  }
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
