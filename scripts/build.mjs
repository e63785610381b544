// Builds everything into out/: the Node side with esbuild, the renderer with Vite.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, run } from './deps.mjs';

const quiet = process.argv.includes('--quiet');
const out = join(ROOT, 'out');
const node = { bundle: true, platform: 'node', target: 'node20', packages: 'external', sourcemap: true, logLevel: quiet ? 'error' : 'warning' };

rmSync(join(out, 'app'), { recursive: true, force: true });
await Promise.all([
  build({ ...node, entryPoints: [join(ROOT, 'main/cli/index.ts')], outfile: join(out, 'cli.mjs'), format: 'esm' }),
  // The read workers' script, loaded by main/roots/pool.ts from beside the bundles.
  build({ ...node, entryPoints: [join(ROOT, 'main/roots/read-worker.ts')], outfile: join(out, 'read-worker.mjs'), format: 'esm' }),
  build({ ...node, entryPoints: [join(ROOT, 'app/main.ts')], outfile: join(out, 'app/main.mjs'), format: 'esm', external: ['electron'] }),
  // Sandboxed preloads cannot be ES modules.
  build({ ...node, entryPoints: [join(ROOT, 'app/preload.ts')], outfile: join(out, 'app/preload.cjs'), format: 'cjs', external: ['electron'] }),
]);
const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
process.exitCode = run(process.execPath, [vite, 'build', ...(quiet ? ['--logLevel', 'error'] : [])]);
