import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withPlaces, type Places } from '../cells';
import { parseGpus } from '../gpu/parse';
import { gpuQueryArgs, runOnce } from '../gpu/sampler';
import { shellQuote } from '../../shared/quote';
import { LaunchService } from '../launch/service';
import { defaultConfigDir, defaultDataDir, packageRoot } from '../paths';

/**
 * The launch service as one CLI command uses it: the app's registry of launched runs, each SSH host over
 * one connection for the command, runs looked at once (no watching).
 */
export function withLauncher<T>(use: (launcher: LaunchService) => Promise<T>): Promise<T> {
  const nvidiaSmi = process.env.CELLWATCH_NVIDIA_SMI ?? 'nvidia-smi';
  return withPlaces({}, async (places: Places) => {
    const launcher = await LaunchService.create(
      {
        configDir: defaultConfigDir(),
        packageRoot: packageRoot(dirname(fileURLToPath(import.meta.url))),
        dataDir: defaultDataDir(),
        gpus: async (host) => {
          if (host === 'local') return runOnce(nvidiaSmi, gpuQueryArgs()).then(parseGpus, () => []);
          const answer = await (await places.shell(host)).run(shellQuote(['nvidia-smi', ...gpuQueryArgs()]));
          return answer.code === 0 ? parseGpus(answer.stdout) : [];
        },
        shell: (host) => places.shell(host),
        watchCell: async () => null,
      },
      false,
    );
    try {
      return await use(launcher);
    } finally {
      launcher.close();
    }
  });
}
