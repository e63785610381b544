// The script of every worker thread of the app (worker-main.ts), and how a thread of it is started.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { unpackedFile } from '../paths';

/** What a worker thread is started as: a read worker, or a thread reading parts of a long log. */
export interface WorkerRole {
  role: 'read' | 'lines';
}

/**
 * The script bundled from its TypeScript source, once a process, where the source runs (a checkout's tests
 * and scripts), as the build bundles it (a module of Node's own imports alone), handed over as a data: URL.
 * Loaded through tsx instead, each read worker took 0.6 s of a core to start, and the unit tests start 400.
 */
let sourceBundle: URL | undefined;
function bundledSource(): URL {
  if (!sourceBundle) {
    // esbuild is a dev dependency, there wherever the source runs; out/ never loads it.
    const { buildSync } = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
    const entry = fileURLToPath(new URL('./worker-main.ts', import.meta.url));
    const [bundle] = buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node20', write: false, logLevel: 'error' }).outputFiles;
    // An empty script would never say it is ready, and every job would wait on it.
    if (!bundle) throw new Error(`esbuild bundled nothing of ${entry}`);
    sourceBundle = new URL(`data:text/javascript;base64,${Buffer.from(bundle.contents).toString('base64')}`);
  }
  return sourceBundle;
}

/**
 * The workers' script: the built one beside the bundle, or one bundled from the source in a checkout; in a
 * worker (this module is part of its script, which may be a data: URL), that worker's own.
 */
export function workersScript(): URL | string {
  if (!import.meta.url.startsWith('file:')) return new URL(import.meta.url);
  const here = fileURLToPath(import.meta.url);
  return here.endsWith('.ts') ? bundledSource() : unpackedFile(dirname(here), 'out', 'read-worker.mjs');
}

/**
 * A thread of the workers' script (`script`: a thread's own, which a data: URL may be) in `role`. It is
 * not given this thread's Node options: its script needs no loader, and with tsx's (scripts run from the
 * source) a thread took 200 ms to start, where it takes 70 ms.
 */
export function startThread(script: URL | string, role: WorkerRole['role'], options: WorkerOptions = {}): Worker {
  return new Worker(script, { ...options, execArgv: [], workerData: { role } satisfies WorkerRole });
}
