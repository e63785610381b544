// Builds everything into out/: the Node side with esbuild, the renderer with Vite.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, run } from './deps.mjs';

const quiet = process.argv.includes('--quiet');
const out = join(ROOT, 'out');
const node = { bundle: true, platform: 'node', target: 'node20', packages: 'external', sourcemap: true, logLevel: quiet ? 'error' : 'warning' };

for (const dir of ['app', 'cli']) rmSync(join(out, dir), { recursive: true, force: true });
await Promise.all([
  // Split: a command loads its own modules only (status starts without the server's, SSH's or zod's).
  build({ ...node, entryPoints: { cli: join(ROOT, 'main/cli/index.ts') }, outdir: out, chunkNames: 'cli/[name]-[hash]', outExtension: { '.js': '.mjs' }, splitting: true, format: 'esm' }),
  // The read workers' script, loaded by main/roots/pool.ts from beside the bundles.
  build({ ...node, entryPoints: [join(ROOT, 'main/roots/read-worker.ts')], outfile: join(out, 'read-worker.mjs'), format: 'esm' }),
  build({ ...node, entryPoints: [join(ROOT, 'app/main.ts')], outfile: join(out, 'app/main.mjs'), format: 'esm', external: ['electron'] }),
  // Sandboxed preloads cannot be ES modules.
  build({ ...node, entryPoints: [join(ROOT, 'app/preload.ts')], outfile: join(out, 'app/preload.cjs'), format: 'cjs', external: ['electron'] }),
]);
const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
process.exitCode = run(process.execPath, [vite, 'build', ...(quiet ? ['--logLevel', 'error'] : [])]);
