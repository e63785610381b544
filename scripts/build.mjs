// Builds everything into out/: the Node side with esbuild, the renderer with Vite. With --if-changed (npm start)
// nothing is rebuilt when no input changed since the last build: a running app, or a spec's server, keeps
// loading its chunks from out/ while another `npm start` comes up.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT, run } from './deps.mjs';

const quiet = process.argv.includes('--quiet');
const out = join(ROOT, 'out');
const STAMP = join(out, '.build-stamp');
const INPUT_DIRS = ['app', 'main', 'renderer', 'shared', 'runners', 'assets'];
const INPUT_FILES = ['package.json', 'package-lock.json', 'vite.config.ts', 'tsconfig.base.json', 'tsconfig.json', 'tsconfig.web.json', 'tsconfig.node.json', 'scripts/build.mjs', 'node_modules/.package-lock.json'];

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

/** What the build reads, as each file's path, size and mtime: any edit, added or removed file changes it. */
function inputsStamp() {
  const paths = [...INPUT_DIRS.flatMap((dir) => [...files(join(ROOT, dir))]), ...INPUT_FILES.map((file) => join(ROOT, file)).filter(existsSync)];
  const hash = createHash('sha256');
  for (const path of paths.sort()) {
    const stat = statSync(path);
    hash.update(`${relative(ROOT, path)}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

/**
 * A hash of the code that reads run directories into the index's rows: a cache of rows that other code made
 * is not used (one built from a later commit of the same version reads its files again).
 */
function readersHash() {
  const hash = createHash('sha256');
  const sources = ['main', 'runners', 'shared'].flatMap((dir) => [...files(join(ROOT, dir))]).filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts'));
  for (const path of sources.sort()) hash.update(`${relative(ROOT, path)}\0`).update(readFileSync(path));
  return hash.digest('hex').slice(0, 16);
}

const stamp = inputsStamp();
if (process.argv.includes('--if-changed') && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === stamp) process.exit(0);

rmSync(STAMP, { force: true });
// Packages stay in node_modules, but for the YAML parser and zod: pure JS that a command's start loads, in
// half the time when bundled (one module each, no package resolution).
const bundled = new Set(['yaml', 'zod']);
const { dependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const external = Object.keys(dependencies).filter((name) => !bundled.has(name)).flatMap((name) => [name, `${name}/*`]);
// The YAML parser's Node build is CommonJS; its ES module build (the same parser) bundles as one.
const alias = { yaml: join(ROOT, 'node_modules', 'yaml', 'browser', 'index.js') };
const define = { __CELLWATCH_READERS__: JSON.stringify(readersHash()) };
const node = { bundle: true, platform: 'node', target: 'node20', external: [...external, 'electron'], alias, define, sourcemap: true, logLevel: quiet ? 'error' : 'warning' };

for (const dir of ['app', 'cli']) rmSync(join(out, dir), { recursive: true, force: true });
await Promise.all([
  // Split: a command loads its own modules only (status starts without the server's, SSH's or zod's).
  build({ ...node, entryPoints: { cli: join(ROOT, 'main/cli/index.ts') }, outdir: out, chunkNames: 'cli/[name]-[hash]', outExtension: { '.js': '.mjs' }, splitting: true, format: 'esm' }),
  // The worker threads' script (read workers and the parts of long reads), loaded from beside the bundles.
  build({ ...node, entryPoints: [join(ROOT, 'main/roots/worker-main.ts')], outfile: join(out, 'read-worker.mjs'), format: 'esm' }),
  build({ ...node, entryPoints: [join(ROOT, 'app/main.ts')], outfile: join(out, 'app/main.mjs'), format: 'esm' }),
  // Sandboxed preloads cannot be ES modules.
  build({ ...node, entryPoints: [join(ROOT, 'app/preload.ts')], outfile: join(out, 'app/preload.cjs'), format: 'cjs' }),
]);
const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
process.exitCode = run(process.execPath, [vite, 'build', ...(quiet ? ['--logLevel', 'error'] : [])]);
if (process.exitCode === 0) writeFileSync(STAMP, stamp);
