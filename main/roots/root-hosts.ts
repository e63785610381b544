// The SSH hosts of the runs roots, as the roots see them: a root waits for its host's first connect when
// added, a host goes once its last root does, and the roots' states are said again when a host's state
// changes (a root says why its host cannot be reached).
import { isLocal, parseAddress } from '../../shared/address';
import type { EventHub } from '../events';
import type { HostRegistry } from '../place/registry';

export class RootHosts {
  private readonly stopHearing: () => unknown;

  /** `addresses`: every root's address now; `statesChanged`: a host's state changed. */
  constructor(
    private readonly hosts: HostRegistry,
    events: EventHub,
    private readonly addresses: () => string[],
    statesChanged: () => void,
  ) {
    let states = '';
    this.stopHearing = events.on('hostsChanged', (statuses) => {
      const now = statuses.map((h) => `${h.alias} ${h.state}`).join('\n');
      if (now === states) return;
      states = now;
      statesChanged();
    });
  }

  /** Until the first outcome of connecting to the root's host (at once for a local root, or a host up). */
  async firstConnect(address: string): Promise<void> {
    await this.hosts.contextOf(parseAddress(address)).ready().catch(() => undefined);
  }

  /** Hosts no root is on any more go, their connections closed. */
  prune(): void {
    this.hosts.prune(new Set(this.addresses().map((a) => parseAddress(a).host).filter((host) => !isLocal(host))));
  }

  close(): void {
    this.stopHearing();
  }
}
