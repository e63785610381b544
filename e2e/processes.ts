import { test } from '@playwright/test';
import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { copyDemo } from '../runners/demo/copy';

export const ROOT = join(dirname(new URL(import.meta.url).pathname), '..');
/** The built command line, which the specs serve and write demos with. */
export const CLI = join(ROOT, 'out', 'cli.mjs');

/** The folder where this run records the process groups its specs start (set by global-setup.ts). */
export const GROUPS_ENV = 'CELLWATCH_E2E_GROUPS';
/** Where the global setup wrote the instant demo that specs copy (instantDemoForSpecs). */
export const DEMO_ENV = 'CELLWATCH_E2E_DEMO';

/** Kills a process group, whatever state it is in. */
export function killGroup(pgid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

const started = new Set<number>();
// A worker that ends (a failed spec, a timed-out hook) takes its processes' groups with it; global teardown
// kills any group whose worker died before it could.
process.once('exit', () => started.forEach((pgid) => killGroup(pgid)));

/** Spawns a command in its own process group, recorded so that it dies with the spec that started it. */
export function startProcess(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { cwd: ROOT, stdio: 'ignore', ...options, detached: true });
  const pgid = child.pid as number;
  started.add(pgid);
  const groups = process.env[GROUPS_ENV];
  if (groups) {
    mkdirSync(groups, { recursive: true });
    writeFileSync(join(groups, String(pgid)), '');
  }
  child.once('exit', () => {
    // Its children may live on in the group: end them with their parent.
    killGroup(pgid);
    started.delete(pgid);
    if (groups) rmSync(join(groups, String(pgid)), { force: true });
  });
  return child;
}

/**
 * Ends a process `startProcess` started with SIGTERM, as a user's Ctrl+C, and resolves once it has exited (a
 * demo writes until then, so only then can its folder go). One that has not gone after a few seconds is
 * killed, and the spec says so.
 */
export async function stopProcess(child: ChildProcess | undefined, name: string): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  killGroup(child.pid as number, 'SIGTERM');
  const late = await Promise.race([exited.then(() => false), new Promise((r) => setTimeout(() => r(true), 10_000))]);
  if (late) {
    killGroup(child.pid as number);
    await exited;
    throw new Error(`${name} did not exit within 10 s of SIGTERM`);
  }
}

export interface Served {
  url: string;
  origin: string;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * Runs a command that prints a serve URL, and resolves once it has. Its children die with it. Called in a
 * beforeAll hook, it gives the hook `timeoutMs` and some more (a hook otherwise has the test's timeout).
 */
export function startServing(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<Served> {
  test.setTimeout(timeoutMs + 15_000);
  const child = startProcess(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const stop = () => stopProcess(child, command);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`no URL within ${timeoutMs} ms; output:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(http:\/\/\S+:\d+\/[\w-]{32}\/)/.exec(output);
      if (match) {
        clearTimeout(timer);
        const url = match[1] as string;
        resolve({ url, origin: new URL(url).origin, output: () => output, stop });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before printing a URL; output:\n${output}`));
    });
  });
}

/**
 * Scratch homes this process made and has not removed: a worker loads every spec file, so a describe
 * block it never runs made one that its afterAll never removes. They go when the process exits.
 */
const scratchHomes = new Set<string>();
process.on('exit', () => scratchHomes.forEach((home) => rmSync(home, { recursive: true, force: true })));

/** A scratch HOME with its own config directory, so a test never sees the user's settings. */
export function scratchHome(): { home: string; env: NodeJS.ProcessEnv; remove(): void } {
  const home = mkdtempSync(join(tmpdir(), 'cellwatch-e2e-'));
  scratchHomes.add(home);
  return {
    home,
    env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'), DISPLAY: '' },
    remove: () => {
      scratchHomes.delete(home);
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/**
 * The demo as written at once, into `runs` (a folder of a scratch home): a copy of the one the global setup
 * wrote (copyDemo), or, where no global setup ran, written there.
 */
export function writeInstantDemo(runs: string, home: ReturnType<typeof scratchHome>): void {
  const written = process.env[DEMO_ENV];
  if (written) copyDemo(written, runs);
  else execFileSync(process.execPath, [CLI, 'demo', runs, '--instant'], { env: { ...process.env, ...home.env } });
}

/**
 * The demo written at once into a scratch home's runs root and served, for the tests of one describe
 * block (the setup of specs that need finished cells): started before them, stopped and removed after.
 * `prepare` adjusts the home first (its PATH, say).
 */
export function instantDemoForSpecs(prepare: (home: ReturnType<typeof scratchHome>) => void = () => undefined): Served {
  const home = scratchHome();
  let served: Served | undefined;
  test.beforeAll(async () => {
    prepare(home);
    const runs = join(home.home, 'runs');
    writeInstantDemo(runs, home);
    served = await startServing(process.execPath, [CLI, 'serve', '--port', '0', runs], home.env);
  });
  test.afterAll(async () => {
    await served?.stop();
    home.remove();
  });
  const current = () => {
    if (!served) throw new Error('the demo is served from beforeAll on');
    return served;
  };
  return {
    get url() {
      return current().url;
    },
    get origin() {
      return current().origin;
    },
    output: () => current().output(),
    stop: () => current().stop(),
  };
}
