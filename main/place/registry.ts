// Every place the app (or one CLI command) reaches: this machine, and each SSH host over one connection,
// shared by every root and cell of that host, with its change feed. The only way into main/ssh/.
import type { ScorerPicks } from '../../runners';
import type { HostStatus } from '../../shared/contract';
import { isLocal } from '../../shared/address';
import { Semaphore } from '../concurrency';
import { hostWithFeed, type HostFeed } from '../ssh/feed';
import type { RemoteHost } from '../ssh/host';
import { localHostContext, type ContextOf, type HostContext } from './context';
import { remoteHostContext } from './remote';

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

export class HostRegistry {
  /** The scorers picked for Inspect logs' outcomes (settings), in every reading a place gives. */
  scorers: () => ScorerPicks = () => ({});
  private readonly local = this.picked(localHostContext());
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
      entry = { host, context: this.picked(remoteHostContext(host, feed)), feed };
      this.hosts.set(alias, entry);
    }
    return entry;
  }

  /** The place as it is, its readings carrying the scorers picked now. */
  private picked(context: HostContext): HostContext {
    return { ...context, read: () => ({ ...context.read(), scorers: this.scorers() }) };
  }

  private get(alias: string): RemoteHost {
    return this.entry(alias).host;
  }

  /** How a place is reached: this machine, or an SSH host's files, changes and programs over its one connection. */
  readonly contextOf: ContextOf = ({ host }) => (isLocal(host) ? this.local : this.entry(host).context);

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
