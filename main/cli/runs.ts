import { parseArgs } from 'node:util';
import { jobText, runElapsed, runStateText } from '../../shared/launch';
import { outJson, UsageError, type Io } from './io';
import { withPlaces } from './places';
import { table } from './table';

export const RUNS_HELP = `cellwatch runs [--json]

Every run launched from this machine (the app or cellwatch launch), on every target: its id, target,
state (a Slurm job's own state beside it), elapsed time, GPU or job, and cell. Each target is asked now;
one that cannot be reached shows its runs as last seen, saying why.
  --json   one object a line, as the app's Runs view reads it

cellwatch stop ID     SIGTERM to the run's process group, SIGKILL after 10 s (scancel for a Slurm job)
cellwatch drain ID    the profile's drain (DRAIN in the cell and SIGUSR1); prints what the run said
cellwatch resume ID [SPEC]  relaunches an ended run into its own cell with SPEC (what its drain printed,
                      "--episodes 7,8", or the list alone) in its profile's resume knob; a profile whose
                      runner finds what is missing itself (resume_spec: missing) takes no SPEC
ID: a run's id, a unique start of it, or its name.`;

export async function runs(argv: string[], io: Io): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean', default: false } } });
  const list = await withPlaces({}, async (places) => (await places.launcher()).listRuns());
  if (values.json) {
    list.forEach((run) => outJson(io, run));
    return 0;
  }
  if (list.length === 0) {
    io.out('No launched runs.');
    return 0;
  }
  const now = Date.now();
  io.out(
    table(
      ['ID', 'NAME', 'ON', 'STATE', 'ELAPSED', 'GPU/JOB', 'CELL'],
      list.map((run) => [run.id.slice(0, 8), run.name, run.target, runStateText(run), runElapsed(run, now), run.job ? jobText(run.job) : run.gpu === null ? '-' : `GPU ${run.gpu}`, run.cell]),
    ),
  );
  for (const run of list) if (run.problem) io.err(`${run.name}: ${run.problem}`);
  return 0;
}

function oneId(argv: string[], command: string): string {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, options: {} });
  if (positionals.length !== 1) throw new UsageError(`cellwatch ${command} takes one run id (see cellwatch runs)`);
  return positionals[0] as string;
}

export async function stop(argv: string[], io: Io): Promise<number> {
  const run = await withPlaces({}, async (places) => (await places.launcher()).stopRun(oneId(argv, 'stop')));
  io.out(`${run.name}: ${runStateText(run)}`);
  return 0;
}

export async function resume(argv: string[], io: Io): Promise<number> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: false });
  const [id, ...spec] = positionals;
  if (!id) throw new UsageError('cellwatch resume takes a run id and, for a profile resumed by episodes, the resume spec its drain printed (see cellwatch runs)');
  const { run, problem } = await withPlaces({}, async (places) => (await places.launcher()).resumeRun(id, spec.join(' ')));
  io.out(`${run.name}: ${runStateText(run)} in ${run.cell}`);
  if (problem) io.err(problem);
  return 0;
}

export async function drain(argv: string[], io: Io): Promise<number> {
  const said = await withPlaces({}, async (places) => (await places.launcher()).drainRun(oneId(argv, 'drain')));
  said.forEach((line) => io.out(line));
  return 0;
}
