import { JsonReader, type ReadContext } from '../../runners';
import { RemoteHost, type HostStatus } from './host';
import { remoteContext } from './remote';

/** The SSH hosts the app watches: one connection each, shared by every root and cell of that host. */
export class Hosts {
  private readonly hosts = new Map<string, { host: RemoteHost; json: JsonReader }>();
  private readonly passphrases = new Map<string, string>();

  constructor(private readonly onStatus: (statuses: HostStatus[]) => void) {}

  get(alias: string): RemoteHost {
    let entry = this.hosts.get(alias);
    if (!entry) {
      const host = new RemoteHost(alias, { passphrases: this.passphrases, onStatus: () => this.onStatus(this.statuses()) });
      entry = { host, json: new JsonReader(remoteContext(host).fs) };
      this.hosts.set(alias, entry);
    }
    return entry.host;
  }

  /** A read context for the host's files, keeping its last good JSON copies across reads. */
  context(alias: string): ReadContext {
    const entry = this.hosts.get(alias);
    if (!entry) throw new Error(`${alias} is not a watched host`);
    return remoteContext(entry.host, entry.json);
  }

  statuses(): HostStatus[] {
    return [...this.hosts.values()].map((e) => e.host.status);
  }

  /** The user said yes to the host's unknown key (after seeing its fingerprint). */
  acceptKey(alias: string): void {
    this.get(alias).reconnect(true);
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
