import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseGpus } from '../gpu/parse';
import { gpuQueryArgs, runOnce } from '../gpu/sampler';
import { pickGpu } from '../launch/gpu-pick';
import { loadProfiles, renderRun } from '../launch/profiles';
import { RunManager } from '../launch/runs';
import { defaultConfigDir, defaultDataDir, packageRoot } from '../paths';
import { UsageError, type Io } from './io';

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
  const configDir = defaultConfigDir();
  const root = packageRoot(dirname(fileURLToPath(import.meta.url)));
  const { profiles, problems } = await loadProfiles([join(root, 'runners', 'profiles'), join(configDir, 'profiles')]);
  problems.forEach((p) => io.err(`${p.file}: ${p.message}`));
  const profile = profiles.find((p) => p.name === values.profile);
  if (!profile) throw new UsageError(`${values.profile ? `no profile ${values.profile}` : '--profile is required'}; profiles: ${profiles.map((p) => p.name).join(', ')}`);
  const set = Object.fromEntries(
    (values.set as string[]).map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new UsageError(`--set takes key=value, not ${JSON.stringify(pair)}`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
  const run = renderRun(profile, set, { dataDir: defaultDataDir(), node: process.execPath, cli: join(root, 'out', 'cli.mjs'), now: new Date() }, values.name);
  let gpu: number | null = null;
  let refused: Error | undefined;
  if (profile.gpu) {
    const command = process.env.CELLWATCH_NVIDIA_SMI ?? 'nvidia-smi';
    const gpus = await runOnce(command, gpuQueryArgs()).then(parseGpus, () => []);
    try {
      gpu = pickGpu(gpus, {
        requested: values.gpu === undefined ? undefined : Number(values.gpu),
        minFreeMib: values['min-free'] === undefined ? undefined : Number(values['min-free']),
        override: values.override,
      });
    } catch (error) {
      refused = error as Error;
    }
  }
  // A dry run shows the command even where the launch itself would be refused.
  if (refused && !values['dry-run']) throw refused;
  io.out(`name  ${run.name}`);
  io.out(`cell  ${run.cell}`);
  if (values['dry-run']) {
    io.out(`cwd   ${run.cwd}`);
    io.out(`run   ${run.command.map((a) => (/^[\w./=:@%+-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ')}`);
    for (const [key, value] of Object.entries({ ...run.env, ...(gpu === null ? {} : { CUDA_VISIBLE_DEVICES: String(gpu) }) })) io.out(`env   ${key}=${value}`);
    if (refused) io.out(`gpu   launch would be refused: ${refused.message}`);
    return 0;
  }
  const launched = await new RunManager(join(configDir, 'launched.json')).launch(run, gpu);
  io.out(`pid   ${launched.pid}${gpu === null ? '' : ` on GPU ${gpu}`}`);
  return 0;
}
