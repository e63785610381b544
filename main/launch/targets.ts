// Where a launch runs: this machine, an SSH host, Slurm here or through a host. Each remote target's place
// and each host's setup ($HOME, the CLI there) are made once, on the shell the host's connection gives.
import { parseTarget } from '../../shared/launch';
import { HostPlace } from './host-place';
import type { RunPlace } from './place';
import { HOST_SETUP_SCRIPT, hostSetupFrom, type HostSetup } from './plan';
import { localShell, runChecked, type Shell } from './shell';
import { SlurmPlace } from './slurm-place';

export class LaunchTargets {
  private readonly places = new Map<string, RunPlace>();
  private readonly setups = new Map<string, Promise<HostSetup>>();

  /** `shell`: an SSH host's shell once it is connected; `local`: this machine's setup, a host's defaults. */
  constructor(
    private readonly shell: (host: string) => Promise<Shell>,
    private readonly local: HostSetup,
  ) {}

  /** A remote target's place (an SSH host, Slurm), made once. */
  place(target: string): RunPlace {
    let place = this.places.get(target);
    if (!place) {
      const parsed = parseTarget(target);
      if (parsed.kind === 'here') throw new Error('this machine is not a remote place');
      const shell = () => this.shellOf(target);
      place = parsed.kind === 'ssh' ? new HostPlace(shell) : new SlurmPlace(shell);
      this.places.set(target, place);
    }
    return place;
  }

  /** Where a target's scripts run: sh here (this machine, sbatch here), or the SSH host's exec channel. */
  shellOf(target: string | undefined): Promise<Shell> {
    const parsed = parseTarget(target);
    const host = parsed.kind === 'here' ? null : parsed.host;
    return host === null ? Promise.resolve(localShell) : this.shell(host);
  }

  /** A host's setup, asked once (again after a failure). */
  hostSetup(host: string): Promise<HostSetup> {
    let setup = this.setups.get(host);
    if (!setup) {
      setup = this.shell(host).then(async (shell) => hostSetupFrom(await runChecked(shell, HOST_SETUP_SCRIPT, 'asking for $HOME'), this.local));
      this.setups.set(host, setup);
      setup.catch(() => this.setups.delete(host));
    }
    return setup;
  }
}
