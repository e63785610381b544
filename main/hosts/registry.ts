import type { HostStatus } from '../../shared/contract';
import { remoteCellContext, type CellContext } from '../cell-context';
import { RemoteHost } from '../ssh/host';

/** The SSH hosts the app watches: one connection each, shared by every root and cell of that host. */
export class HostRegistry {
  private readonly hosts = new Map<string, { host: RemoteHost; context: CellContext }>();
  private readonly passphrases = new Map<string, string>();

  constructor(private readonly onStatus: (statuses: HostStatus[]) => void) {}

  private entry(alias: string) {
    let entry = this.hosts.get(alias);
    if (!entry) {
      const host = new RemoteHost(alias, { passphrases: this.passphrases, onStatus: () => this.onStatus(this.statuses()) });
      // One context a host: it keeps the last good copy of each JSON file across reads.
      entry = { host, context: remoteCellContext(host) };
      this.hosts.set(alias, entry);
    }
    return entry;
  }

  get(alias: string): RemoteHost {
    return this.entry(alias).host;
  }

  /** How cells on the host are reached: over its one connection. */
  context(alias: string): CellContext {
    return this.entry(alias).context;
  }

  statuses(): HostStatus[] {
    return [...this.hosts.values()].map((e) => e.host.status);
  }

  /** The user said yes to the host's unknown key: exactly the fingerprint they were shown, once. */
  acceptKey(alias: string): void {
    const host = this.get(alias);
    host.reconnect(host.status.unknownKey ?? undefined);
  }

  /** A passphrase for an encrypted key: kept in memory for this run of the app, never written. */
  unlock(alias: string, keyFile: string, passphrase: string): void {
    this.passphrases.set(keyFile, passphrase);
    this.get(alias).reconnect();
  }

  reconnect(alias: string): void {
    this.get(alias).reconnect();
  }

  /** Drops hosts no root uses any more. */
  prune(inUse: Set<string>): void {
    for (const [alias, entry] of this.hosts) {
      if (inUse.has(alias)) continue;
      entry.host.close();
      this.hosts.delete(alias);
    }
    this.onStatus(this.statuses());
  }

  close(): void {
    this.hosts.forEach((e) => e.host.close());
    this.hosts.clear();
  }
}
