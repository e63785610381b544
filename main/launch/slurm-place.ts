import type { SlurmJob } from '../../shared/launch';
import { cellScript, drainScript, lines, tailScript } from './host-scripts';
import type { LaunchedRun, RunPlace, Seen, Start } from './place';
import { shellQuote } from '../../shared/quote';
import { failure, runChecked, type Shell } from './shell';
import { parseJobId, parseSacct, parseScontrol, parseSqueue, runStateOfJob, SACCT_FIELDS, SQUEUE_FORMAT } from './slurm';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A Slurm cluster, through `sbatch` here or on an SSH host (its login node): the scheduler runs the job,
 * Cellwatch submits, reads its state and cancels. Without accounting (no sacct), an ended job's state
 * comes from scontrol while slurmctld remembers it, then stays as last seen.
 */
export class SlurmPlace implements RunPlace {
  constructor(private readonly shell: () => Promise<Shell>) {}

  async start(_id: string, { run, submit, resume }: Start) {
    if (!submit) throw new Error(`${run.name}: no sbatch line to submit`);
    // sbatch appends to the cell's logs (--open-mode=append): a resume's lines follow the drained run's.
    const out = await runChecked(await this.shell(), `${cellScript(run.cell, resume)} && mkdir -p ${shellQuote([run.cwd])} && ${shellQuote(submit)}`, `submitting ${run.name} with sbatch`);
    return { pid: null, pidStart: null, job: parseJobId(out) };
  }

  /** The jobs' states: squeue for those queued or running, then sacct, then scontrol for those that ended. */
  private async jobs(shell: Shell, ids: string[]): Promise<Map<string, SlurmJob>> {
    const found = new Map<string, SlurmJob>();
    const queued = await shell.run(`squeue -h -o ${shellQuote([SQUEUE_FORMAT])} -j ${ids.join(',')}`);
    // squeue exits 1 when none of the ids is queued any more ("Invalid job id specified").
    if (queued.code !== 0 && !/invalid job id/i.test(queued.stderr)) throw failure(shell, 'squeue', queued);
    parseSqueue(queued.stdout).forEach((job) => found.set(job.id, job));
    const ended = () => ids.filter((id) => !found.has(id));
    if (ended().length) {
      const accounted = await shell.run(`sacct -n -P -X -o ${SACCT_FIELDS} -j ${ended().join(',')}`);
      if (accounted.code === 0) parseSacct(accounted.stdout).forEach((job) => found.set(job.id, job));
    }
    if (ended().length) {
      const remembered = await shell.run(`for j in ${ended().join(' ')}; do scontrol -o show job "$j" 2>/dev/null; done; true`);
      parseScontrol(remembered.stdout).forEach((job) => found.set(job.id, job));
    }
    return found;
  }

  async look(runs: LaunchedRun[]) {
    const jobs = await this.jobs(await this.shell(), runs.map((r) => r.job as string));
    return new Map<string, Seen>(
      runs.map((run) => {
        const job = jobs.get(run.job as string);
        if (job) return [run.id, { state: runStateOfJob(job.state), exitCode: job.exitCode, job }];
        // Forgotten by Slurm: what was seen last stands, ended.
        const last = run.seen?.job ?? { id: run.job as string, state: 'UNKNOWN', reason: null, node: null, exitCode: null };
        const state = run.seen && run.seen.state !== 'running' && run.seen.state !== 'pending' ? run.seen.state : 'ended';
        return [run.id, { state, exitCode: last.exitCode, job: last }];
      }),
    );
  }

  async stop(run: LaunchedRun, graceMs: number) {
    const shell = await this.shell();
    await runChecked(shell, `scancel ${run.job}`, `cancelling job ${run.job} (${run.name})`);
    const deadline = Date.now() + graceMs + 10_000;
    while (Date.now() < deadline) {
      const state = (await this.jobs(shell, [run.job as string])).get(run.job as string)?.state;
      if (!state || !['PENDING', 'RUNNING', 'COMPLETING', 'CONFIGURING'].includes(state)) return;
      await sleep(200);
    }
  }

  async drain(run: LaunchedRun, waitMs: number) {
    return lines(await runChecked(await this.shell(), drainScript(run.cell, `scancel --signal=USR1 --batch ${run.job}`, waitMs), `draining job ${run.job} (${run.name})`));
  }

  async tail(run: LaunchedRun, file: string, count: number) {
    return lines(await runChecked(await this.shell(), tailScript(run.cell, file, count), `reading ${run.name}'s ${file}`));
  }
}
