import type { LaunchedRun, RunPlace, Seen, Start } from './place';
import { drainScript, lines, lookScript, parseLook, startScript, stopScript, tailScript, type Leader } from './host-scripts';
import { runChecked, type Shell } from './shell';

const leader = (run: LaunchedRun): Leader => ({ id: run.id, pid: run.pid as number, pidStart: run.pidStart, cell: run.cell });

/**
 * An SSH host: each run started over the host's connection in its own session, detached so that it
 * outlives the connection and the app; its pid and start time are kept in its cell.
 */
export class HostPlace implements RunPlace {
  constructor(private readonly shell: () => Promise<Shell>) {}

  async start(_id: string, { run, env, resume, logs }: Start) {
    const shell = await this.shell();
    const out = await runChecked(shell, startScript(run.cell, run.cwd, run.command, env, resume, logs), `starting ${run.name}`);
    const [pid, pidStart, stdout, stderr] = out.trim().split(' ');
    if (!pid || !/^\d+$/.test(pid)) throw new Error(`starting ${run.name} on ${shell.host} printed no pid: ${JSON.stringify(out.slice(0, 200))}`);
    return { pid: Number(pid), pidStart: pidStart || null, job: null, ...(stdout && stderr ? { logs: { stdout, stderr } } : {}) };
  }

  async look(runs: LaunchedRun[]) {
    const shell = await this.shell();
    const seen = parseLook(await runChecked(shell, lookScript(runs.map(leader)), 'looking at launched runs'));
    return new Map<string, Seen>(
      runs.map((run) => {
        const found = seen.get(run.id);
        if (!found) return [run.id, { state: 'ended', exitCode: null, job: null }];
        if (found.running) return [run.id, { state: 'running', exitCode: null, job: null }];
        const code = found.exitCode;
        return [run.id, { state: code === null ? 'ended' : code === 0 ? 'exited' : 'crashed', exitCode: code, job: null }];
      }),
    );
  }

  async stop(run: LaunchedRun, graceMs: number) {
    await runChecked(await this.shell(), stopScript(leader(run), graceMs), `stopping ${run.name}`);
  }

  async drain(run: LaunchedRun, waitMs: number) {
    return lines(await runChecked(await this.shell(), drainScript(run.cell, `kill -USR1 -${run.pid} 2>/dev/null`, waitMs), `draining ${run.name}`));
  }

  async tail(run: LaunchedRun, file: string, count: number) {
    return lines(await runChecked(await this.shell(), tailScript(run.cell, file, count), `reading ${run.name}'s ${file}`));
  }
}
