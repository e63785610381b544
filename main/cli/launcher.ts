import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withPlaces } from './places';
import { parseGpus } from '../gpu/parse';
import { gpuQueryArgs } from '../gpu/sampler';
import { LaunchService } from '../launch/service';
import { defaultConfigDir, defaultDataDir, packageRoot } from '../paths';
import { isLocal } from '../../shared/address';

/**
 * The launch service as one CLI command uses it: the app's registry of launched runs, each SSH host over
 * one connection for the command, runs looked at once (no watching).
 */
export function withLauncher<T>(use: (launcher: LaunchService) => Promise<T>): Promise<T> {
  const nvidiaSmi = process.env.CELLWATCH_NVIDIA_SMI ?? 'nvidia-smi';
  return withPlaces({}, async (places) => {
    const launcher = await LaunchService.create(
      {
        configDir: defaultConfigDir(),
        packageRoot: packageRoot(dirname(fileURLToPath(import.meta.url))),
        dataDir: defaultDataDir(),
        gpus: (host) => places.contextOf({ host }).once(isLocal(host) ? nvidiaSmi : 'nvidia-smi', gpuQueryArgs()).then(parseGpus, () => []),
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
