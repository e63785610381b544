import { spawn } from 'node:child_process';
import { constants, readFileSync } from 'node:fs';
import { lstat, mkdir, open, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { groupRunning } from './pgid';
import { cellExists, DRAIN, notResumable, replacedLog, sharedLog, STDERR, STDOUT, type LaunchedRun, type RunPlace, type Seen, type Start } from './place';

/** A file Cellwatch makes in a cell: new, and never a link's target. */
const NEW_FILE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
/** A resumed run's log: appended to, and never through a link the run put in its place. */
const OWN_LOG = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW;

/** The cell a launch starts in: a new folder, or, for a resume, the run's own folder as it is (no link). */
async function enterCell(cell: string, resume: boolean): Promise<void> {
  await mkdir(dirname(cell), { recursive: true });
  if (resume) {
    if (!(await lstat(cell).catch(() => null))?.isDirectory()) throw new Error(notResumable(cell));
    // The drain's sentinel (or a link the run put there: removed, not followed).
    await rm(join(cell, DRAIN), { force: true });
    return;
  }
  // A new cell, always: a folder a run already had could hold links that Cellwatch would write through.
  await mkdir(cell).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'EEXIST' ? new Error(cellExists(cell)) : error;
  });
}

/** A log of the cell, opened to append: new, or for a resume the one the launch made (`expected`, its DEV:INO) and no other. */
async function openLog(file: string, resume: boolean, expected: string | undefined) {
  const log = await open(file, (resume ? OWN_LOG : NEW_FILE) | constants.O_APPEND).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ELOOP' ? new Error(notResumable(file)) : error;
  });
  const info = await log.stat();
  const id = `${info.dev}:${info.ino}`;
  // O_NOFOLLOW stops symbolic links only: a hard link to a file outside the cell has two names.
  const refused = info.nlink > 1 ? sharedLog(file) : expected !== undefined && id !== expected ? replacedLog(file) : null;
  if (refused) {
    await log.close();
    throw new Error(refused);
  }
  return { log, id };
}

/** When the process with this pid started (field 22 of /proc/PID/stat); null where there is no /proc. */
function startTime(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/**
 * Whether the run's process group still lives (its leader may have exited while its children go on), and
 * never when its pid now belongs to a process that started at another time (the pid was reused).
 */
function alive(run: LaunchedRun): boolean {
  const pid = run.pid as number;
  if (run.pidStart !== null && process.platform === 'linux') {
    const now = startTime(pid);
    // The leader may have exited while its group lives on: then the group's other processes answer below.
    if (now !== null && now !== run.pidStart) return false;
  }
  try {
    process.kill(-pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return groupRunning(pid) ?? true;
}

async function tailOf(file: string, lines: number): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter((l) => l !== '').slice(-lines);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** This machine: each run in its own process group, its stdout and stderr appended to files in its cell. */
export class LocalPlace implements RunPlace {
  /** `exited`: hears each run's exit, as its parent sees it (possibly before `start` resolves). */
  constructor(private readonly exited: (id: string, exit: NonNullable<LaunchedRun['exit']>) => void) {}

  async start(id: string, { run, env, resume = false, logs }: Start) {
    await enterCell(run.cell, resume);
    await mkdir(run.cwd, { recursive: true });
    const { log: out, id: stdout } = await openLog(join(run.cell, STDOUT), resume, logs?.stdout);
    const { log: err, id: stderr } = await openLog(join(run.cell, STDERR), resume, logs?.stderr).catch(async (error: Error) => {
      await out.close();
      throw error;
    });
    const [command, ...args] = run.command as [string, ...string[]];
    const child = spawn(command, args, { cwd: run.cwd, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', out.fd, err.fd] });
    // Listened for at once: a command that exits at once may exit before the run is recorded.
    child.once('exit', (code, signal) => this.exited(id, { code, signal, at: Date.now() }));
    const started = new Promise<number>((resolve, reject) => {
      child.once('spawn', () => resolve(child.pid as number));
      child.on('error', (e) => reject(new Error(`could not start ${command}: ${e.message}`)));
    });
    const pid = await started.finally(() => Promise.all([out.close(), err.close()]));
    child.unref();
    return { pid, pidStart: startTime(pid), job: null, logs: { stdout, stderr } };
  }

  async look(runs: LaunchedRun[]) {
    return new Map<string, Seen>(
      runs.map((run) => {
        if (alive(run)) return [run.id, { state: 'running', exitCode: null, job: null }];
        const code = run.exit?.code ?? null;
        return [run.id, { state: !run.exit ? 'ended' : code === 0 ? 'exited' : 'crashed', exitCode: code, job: null }];
      }),
    );
  }

  async stop(run: LaunchedRun, graceMs: number) {
    if (!alive(run)) return;
    const pid = run.pid as number;
    process.kill(-pid, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (alive(run) && Date.now() < deadline) await sleep(50);
    if (alive(run)) process.kill(-pid, 'SIGKILL');
    while (alive(run)) await sleep(20);
  }

  async drain(run: LaunchedRun, waitMs: number) {
    const before = (await tailOf(join(run.cell, STDOUT), 100_000)).length;
    // Never through a link the run planted (DRAIN -> a file of the user's, which would be emptied).
    await open(join(run.cell, DRAIN), constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW)
      .then((file) => file.close())
      .catch((error: NodeJS.ErrnoException) => {
        throw error.code === 'ELOOP' ? new Error(`${join(run.cell, DRAIN)} is a link: not written; the run was not drained`) : error;
      });
    process.kill(-(run.pid as number), 'SIGUSR1');
    await sleep(waitMs);
    return (await tailOf(join(run.cell, STDOUT), 100_000)).slice(before);
  }

  tail(run: LaunchedRun, file: string, lines: number) {
    return tailOf(join(run.cell, file), lines);
  }
}
