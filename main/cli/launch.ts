import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseGpus } from '../gpu/parse';
import { gpuQueryArgs, runOnce } from '../gpu/sampler';
import { planLaunch, profileDirs } from '../launch/plan';
import { RunManager } from '../launch/runs';
import { shellQuote } from '../launch/quote';
import { defaultConfigDir, defaultDataDir, packageRoot } from '../paths';
import { UsageError, type Io } from './io';
import { printable } from './printable';

export const LAUNCH_HELP = `cellwatch launch --profile P [--set key=value ...] [--name ui_...] [--gpu N] [--min-free MiB] [--override] [--dry-run]

Starts a UI run of a runner profile (shipped in runners/profiles, or yours in the config folder's
profiles/), in its own process group, its stdout and stderr appended to files in its cell; prints the
run's name (always ui_...) and its cell. A profile that needs a GPU gets the one with the most free
memory (CUDA_VISIBLE_DEVICES), refused below --min-free (6000 MiB) unless --override. --dry-run prints
the exact command and starts nothing.`;

export async function launch(argv: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      profile: { type: 'string' },
      set: { type: 'string', multiple: true, default: [] },
      name: { type: 'string' },
      gpu: { type: 'string' },
      'min-free': { type: 'string' },
      override: { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
    },
  });
  if (!values.profile) throw new UsageError(`--profile is required\n\n${LAUNCH_HELP}`);
  const configDir = defaultConfigDir();
  const root = packageRoot(dirname(fileURLToPath(import.meta.url)));
  const nvidiaSmi = process.env.CELLWATCH_NVIDIA_SMI ?? 'nvidia-smi';
  const set = Object.fromEntries(
    (values.set as string[]).map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new UsageError(`--set takes key=value, not ${JSON.stringify(pair)}`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
  const number = (text: string | undefined) => (text === undefined ? undefined : Number(text));
  const { plan, run, profile } = await planLaunch(
    { profile: values.profile, values: set, name: values.name, gpu: number(values.gpu), minFreeMib: number(values['min-free']), override: values.override },
    {
      profileDirs: profileDirs(root, configDir),
      dataDir: defaultDataDir(),
      cli: join(root, 'out', 'cli.mjs'),
      gpus: () => runOnce(nvidiaSmi, gpuQueryArgs()).then(parseGpus, () => []),
    },
  ).catch((error: Error) => {
    throw error.message.startsWith('no profile') ? new UsageError(error.message) : error;
  });
  // Each value on its own line, control characters shown: a newline in --set cannot forge a line of the plan.
  io.out(`name  ${printable(plan.name)}`);
  io.out(`cell  ${printable(plan.cell)}`);
  if (values['dry-run']) {
    io.out(`cwd   ${printable(plan.cwd)}`);
    io.out(`run   ${printable(shellQuote(plan.command))}`);
    for (const [key, value] of Object.entries(plan.env)) io.out(`env   ${printable(`${key}=${value}`)}`);
    if (plan.refused) io.out(`gpu   launch would be refused: ${plan.refused}`);
    return 0;
  }
  if (plan.refused) throw new Error(plan.refused);
  const launched = await new RunManager(join(configDir, 'launched.json')).launch(run, plan.gpu, profile.drain === 'sentinel');
  io.out(`pid   ${launched.pid}${plan.gpu === null ? '' : ` on GPU ${plan.gpu}`}`);
  return 0;
}
