import { parseArgs } from 'node:util';
import type { LaunchRequest } from '../../shared/launch';
import { shellQuote } from '../../shared/quote';
import { UsageError, type Io } from './io';
import { withPlaces } from './places';
import { printable } from './printable';
import { LOCAL } from '../../shared/address';

export const LAUNCH_HELP = `cellwatch launch --profile P [--on TARGET] [--set key=value ...] [--name ui_...] [--gpu N] [--min-free MiB] [--override] [--dry-run]

Starts a UI run of a runner profile (shipped in runners/profiles, or yours in the config folder's
profiles/), its stdout and stderr appended to files in its cell; prints the run's name (always ui_...),
its cell and its id (for cellwatch stop/drain). A profile that needs a GPU gets the one with the most free
memory (CUDA_VISIBLE_DEVICES), refused below --min-free (6000 MiB) unless --override. --dry-run prints
the exact command (and sbatch line) and starts nothing.

  --on local          this machine, in its own process group (the default)
  --on ALIAS          an SSH host of ~/.ssh/config: started with setsid over its connection, detached, its
                      pid and start time kept in the cell (launch.pid); its GPU from its nvidia-smi
  --on slurm          sbatch on this machine; --on slurm@ALIAS: sbatch on an SSH host (a login node)
      --slurm-gpus N  --gres=gpu:N (default 1 for a profile that needs a GPU, else 0)
      --time T        --time (e.g. 2:00:00)
      --partition P   --partition
      --sbatch=ARGS   more sbatch arguments, as one string (--sbatch='--mem=32G --account=lab')`;

export async function launch(argv: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      profile: { type: 'string' },
      on: { type: 'string', default: LOCAL },
      set: { type: 'string', multiple: true, default: [] },
      name: { type: 'string' },
      gpu: { type: 'string' },
      'min-free': { type: 'string' },
      override: { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
      'slurm-gpus': { type: 'string' },
      time: { type: 'string' },
      partition: { type: 'string' },
      sbatch: { type: 'string' },
    },
  });
  if (!values.profile) throw new UsageError(`--profile is required\n\n${LAUNCH_HELP}`);
  const set = Object.fromEntries(
    (values.set as string[]).map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new UsageError(`--set takes key=value, not ${JSON.stringify(pair)}`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
  const number = (text: string | undefined) => (text === undefined ? undefined : Number(text));
  const request: LaunchRequest = {
    profile: values.profile,
    values: set,
    name: values.name,
    gpu: number(values.gpu),
    minFreeMib: number(values['min-free']),
    override: values.override,
    target: values.on,
    slurm: { gpus: number(values['slurm-gpus']), time: values.time, partition: values.partition, extra: values.sbatch },
  };
  return withPlaces({}, async (places) => {
    const launcher = await places.launcher();
    const plan = await launcher.planLaunch(request).catch((error: Error) => {
      throw /^no profile|^launch target/.test(error.message) ? new UsageError(error.message) : error;
    });
    // Each value on its own line, control characters shown: a newline in --set cannot forge a line of the plan.
    io.out(`name  ${printable(plan.name)}`);
    io.out(`on    ${printable(plan.target)}`);
    io.out(`cell  ${printable(plan.cell)}`);
    if (values['dry-run']) {
      io.out(`cwd   ${printable(plan.cwd)}`);
      io.out(`run   ${printable(shellQuote(plan.command))}`);
      for (const [key, value] of Object.entries(plan.env)) io.out(`env   ${printable(`${key}=${value}`)}`);
      if (plan.submit) io.out(`sbatch ${printable(shellQuote(plan.submit))}`);
      if (plan.refused) io.out(`gpu   launch would be refused: ${plan.refused}`);
      return 0;
    }
    if (plan.refused) throw new Error(plan.refused);
    const { run, problem } = await launcher.launchRun({ ...request, name: plan.name });
    io.out(`id    ${run.id}`);
    if (problem) io.err(`note  ${problem}`);
    if (run.job) io.out(`job   ${run.job.id} (${run.job.state})`);
    else io.out(`pid   ${run.pid}${run.gpu === null ? '' : ` on GPU ${run.gpu}`}`);
    return 0;
  });
}
