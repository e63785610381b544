import type { HostStatus } from '../../shared/contract';
import { remoteHostContext, type HostContext } from '../host-context';
import { Semaphore } from '../concurrency';
import { hostWithFeed, type HostFeed } from '../ssh/feed';
import type { RemoteHost } from '../ssh/host';

/** SSH handshakes in flight at once: a fleet connects in waves, a host that hangs holds one place only. */
const HANDSHAKES = 8;

interface Entry {
  host: RemoteHost;
  context: HostContext;
  feed: HostFeed;
}

export interface RegistryOptions {
  /** The find loop's interval on hosts without inotifywait, in seconds. */
  findIntervalS?: number;
  /** Add an unknown host key instead of refusing it (the CLI's --accept-new-host-key). */
  acceptNewHostKey?: boolean;
  /** How long a handshake may take. */
  timeoutMs?: number;
  /** Counts the bytes each host's connection receives (benchmarks). */
  onBytesReceived?: (alias: string, bytes: number) => void;
}

/**
 * The SSH hosts the app (or one CLI command) reaches: one connection each, shared by every root and cell
 * of that host, its change feed, and its HostContext.
 */
export class HostRegistry {
  private readonly hosts = new Map<string, Entry>();
  private readonly passphrases = new Map<string, string>();
  private readonly handshakes = new Semaphore(HANDSHAKES);

  constructor(
    private readonly onStatus: (statuses: HostStatus[]) => void,
    private readonly options: RegistryOptions = {},
  ) {}

  private entry(alias: string): Entry {
    let entry = this.hosts.get(alias);
    if (!entry) {
      const { host, feed } = hostWithFeed(
        alias,
        {
          passphrases: this.passphrases,
          handshakes: this.handshakes,
          acceptNewHostKey: this.options.acceptNewHostKey,
          timeoutMs: this.options.timeoutMs,
          ...(this.options.onBytesReceived ? { onBytesReceived: (bytes: number) => this.options.onBytesReceived?.(alias, bytes) } : {}),
          onStatus: () => this.onStatus(this.statuses()),
        },
        { findIntervalS: this.options.findIntervalS, onStatus: () => this.onStatus(this.statuses()) },
      );
      // One context a host: it keeps the last good copy of each JSON file across reads.
      entry = { host, context: remoteHostContext(host, feed), feed };
      this.hosts.set(alias, entry);
    }
    return entry;
  }

  get(alias: string): RemoteHost {
    return this.entry(alias).host;
  }

  /** How the host is reached: its files, changes and programs, over its one connection. */
  context(alias: string): HostContext {
    return this.entry(alias).context;
  }

  feed(alias: string): HostFeed {
    return this.entry(alias).feed;
  }

  /** The runs roots the host's feed watches. */
  watchRoots(alias: string, paths: string[]): void {
    this.entry(alias).feed.setRoots(paths);
  }

  statuses(): HostStatus[] {
    return [...this.hosts.values()].map((e) => ({ ...e.host.status, feed: e.feed.status }));
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
      entry.feed.close();
      entry.host.close();
      this.hosts.delete(alias);
    }
    this.onStatus(this.statuses());
  }

  close(): void {
    this.hosts.forEach((e) => (e.feed.close(), e.host.close()));
    this.hosts.clear();
  }
}
