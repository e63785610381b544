// The script of every worker thread of the app (worker-main.ts), and how a thread of it is started.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { unpackedFile } from '../paths';
import { replaceFileSync, staleTemp } from '../state-file';

/** What a worker thread is started as: a read worker, or a thread reading parts of a long log. */
export interface WorkerRole {
  role: 'read' | 'lines';
}

/** The name of a bundle of the workers' script: the build's, and those bundled from the source. */
const BUNDLE = /^read-worker(-[0-9a-f]+)?\.mjs$/;
/** A source bundle no process has written for this long is one of an older checkout: removed. */
const STALE_MS = 24 * 3600_000;

/**
 * The script bundled from its TypeScript source, once a process, where the source runs (a checkout's tests
 * and scripts), as the build bundles it (a module of Node's own imports alone), kept under its content's hash
 * in node_modules/.cache/cellwatch. Loaded through tsx instead, each read worker took 0.6 s of a core to
 * start, and the unit tests start 500; handed over as a data: URL, 40-50 ms more than from a file.
 */
let sourceBundle: { dir: string; contents: Uint8Array; file: string } | undefined;
function bundledSource(): URL {
  if (!sourceBundle) {
    // esbuild is a dev dependency, there wherever the source runs; out/ never loads it.
    const require = createRequire(import.meta.url);
    const { buildSync } = require('esbuild') as typeof import('esbuild');
    const entry = fileURLToPath(new URL('./worker-main.ts', import.meta.url));
    const [bundle] = buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node20', write: false, logLevel: 'error' }).outputFiles;
    // An empty script would never say it is ready, and every job would wait on it.
    if (!bundle) throw new Error(`esbuild bundled nothing of ${entry}`);
    const dir = join(dirname(dirname(require.resolve('esbuild/package.json'))), '.cache', 'cellwatch');
    sourceBundle = { dir, contents: bundle.contents, file: keptBundle(dir, bundle.contents) };
  }
  // Kept again where another process removed it (this one has run from the source for more than a day).
  if (!existsSync(sourceBundle.file)) keptBundle(sourceBundle.dir, sourceBundle.contents);
  return pathToFileURL(sourceBundle.file);
}

/**
 * `contents` kept in `dir` under its hash (its path); bundles there that no process has written for a day,
 * an older checkout's, and those a writer that died left half-written, are removed.
 */
export function keptBundle(dir: string, contents: Uint8Array): string {
  const file = join(dir, `read-worker-${createHash('sha256').update(contents).digest('hex').slice(0, 16)}.mjs`);
  mkdirSync(dir, { recursive: true });
  // Written whole under another name first: another process of the run may be loading it.
  replaceFileSync(file, contents);
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    const other = join(dir, name);
    const old = BUNDLE.test(name) && other !== file && now - (statSync(other, { throwIfNoEntry: false })?.mtimeMs ?? now) > STALE_MS;
    if (old || staleTemp(name)) rmSync(other, { force: true });
  }
  return file;
}

/**
 * The workers' script: the built one beside the bundle, or one bundled from the source in a checkout; in a
 * worker (this module is part of its script), that worker's own.
 */
export function workersScript(): URL | string {
  const here = import.meta.url;
  if (BUNDLE.test(basename(here))) return new URL(here);
  const path = fileURLToPath(here);
  return path.endsWith('.ts') ? bundledSource() : unpackedFile(dirname(path), 'out', 'read-worker.mjs');
}

/**
 * A thread of the workers' script (`script`: a thread's own) in `role`. It is not given this thread's Node
 * options: its script needs no loader, and with tsx's (scripts run from the source) a thread took 200 ms to
 * start, where it takes 70 ms.
 */
export function startThread(script: URL | string, role: WorkerRole['role'], options: WorkerOptions = {}): Worker {
  return new Worker(script, { ...options, execArgv: [], workerData: { role } satisfies WorkerRole });
}
