import { homedir } from 'node:os';
import type { SFTPWrapper } from 'ssh2';
import type { Spawned } from '../programs';
import { shellQuote } from '../../shared/quote';
import type { HostStatus } from '../../shared/contract';
import { problem } from '../../shared/model';
import type { HostConfig } from './config';
import { resolveAlias, SshConfigError } from './openssh';
import type { Semaphore } from '../concurrency';
import { HostKeyError, PassphraseNeeded, type ConnectOptions } from './connection';
import { connectTransport } from './connect';
import { HelperGone } from './helper';
import type { HostConnection } from './transport';
import { withOptionLines } from './option-lines';
import { HostUnavailableError } from '../../shared/errors';

export type { HostStatus };

const MAX_BACKOFF_MS = 30_000;
/** How often the connection's round trip is measured. */
const LATENCY_MS = 15_000;

/**
 * A shell script that runs `command`, ending with its exit code, and ends its whole process group if the
 * channel's input ends first (the channel closed, or the connection gone): a long-lived command started
 * over SSH (nvidia-smi -lms, the change feed) never outlives its channel. sshd passes no signal to a
 * command without a terminal, so closing is the one way to say stop.
 */
export function untilClosed(command: string): string {
  return ['exec 3<&0', '{ while read -r _ <&3; do :; done; kill 0; } &', 'watcher=$!', `{ ${command}\n} </dev/null`, 'code=$?', 'kill $watcher 2>/dev/null', 'exit $code'].join('\n');
}

export type RemoteHostOptions = ConnectOptions & { home?: string; config?: HostConfig; onStatus?: (status: HostStatus) => void; handshakes?: Semaphore };


/**
 * One SSH host: one connection that every cell of the host shares, reconnected with backoff when it
 * drops. Authentication and host-key failures stop the retries until the user acts (`reconnect`).
 */
export class RemoteHost {
  private transport: HostConnection | undefined;
  /** The wait before the next attempt: none after a working connection dropped (a blip), then 1 s, doubling. */
  private backoff = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private latencyTimer: NodeJS.Timeout | undefined;
  private waiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  status: HostStatus;

  constructor(
    readonly alias: string,
    private readonly options: RemoteHostOptions = {},
  ) {
    this.status = { alias, state: 'connecting', problem: null, retryAt: null, unknownKey: null, lockedKey: null, latencyMs: null, via: null };
    void this.attempt();
  }

  private set(status: Partial<HostStatus>): void {
    this.status = { ...this.status, ...status };
    this.options.onStatus?.(this.status);
  }

  private async attempt(acceptFingerprint?: string): Promise<void> {
    if (this.closed) return;
    let config: HostConfig | undefined;
    try {
      config = this.options.config ?? (await resolveAlias(this.alias, this.options.home));
      const resolved = config;
      const connect = () => connectTransport(resolved, { ...this.options, acceptFingerprint, resolveJump: (alias) => resolveAlias(alias, this.options.home) });
      const transport = await (this.options.handshakes ? this.options.handshakes.run(connect) : connect());
      if (this.closed) return void transport.end();
      this.transport = transport;
      this.backoff = 0;
      transport.onClose(() => this.dropped(transport));
      transport.commands.onChosen((commands) => this.transport === transport && this.set({ commands }));
      this.set({ state: 'connected', problem: null, retryAt: null, unknownKey: null, lockedKey: null, via: transport.via });
      this.waiters.splice(0).forEach((w) => w.resolve());
      this.measure(transport);
    } catch (error) {
      const message = config ? await withOptionLines(error as Error, config, this.options.home ?? homedir()) : (error as Error).message;
      if (error instanceof HostKeyError || error instanceof PassphraseNeeded || error instanceof SshConfigError || /authentication failed/.test(message)) {
        this.set({
          state: 'failed',
          problem: problem(this.alias, message, error instanceof HostKeyError && error.kind === 'unknown' ? { tip: 'check the fingerprint with the server\'s admin, then accept it' } : {}),
          retryAt: null,
          unknownKey: error instanceof HostKeyError && error.kind === 'unknown' ? error.fingerprint : null,
          lockedKey: error instanceof PassphraseNeeded ? error.keyFile : null,
        });
        this.waiters.splice(0).forEach((w) => w.reject(error as Error));
        return;
      }
      this.retry(message);
      // Whoever waits hears this attempt's outcome, in ssh's words, within the connect timeout; the host is
      // tried again on its own (a VPN that comes back), and ready() waits for that next attempt.
      this.waiters.splice(0).forEach((w) => w.reject(new Error(message)));
    }
  }

  /** The round trip of one small SFTP request, now and every LATENCY_MS while this connection lives. */
  private measure(transport: HostConnection): void {
    if (this.transport !== transport || this.closed) return;
    const started = performance.now();
    try {
      transport.sftp.realpath('.', (error) => {
        if (this.transport !== transport) return;
        if (!error) this.set({ latencyMs: Math.round((performance.now() - started) * 10) / 10 });
        clearTimeout(this.latencyTimer);
        this.latencyTimer = setTimeout(() => this.measure(transport), LATENCY_MS);
        this.latencyTimer.unref();
      });
    } catch {
      // The connection went in between: the next one is measured when it comes.
    }
  }

  private dropped(transport: HostConnection): void {
    if (this.transport !== transport || this.closed) return;
    this.transport = undefined;
    transport.commands.close();
    this.retry('connection lost');
  }

  private retry(why: string): void {
    const wait = this.backoff;
    this.backoff = Math.min(Math.max(this.backoff * 2, 1000), MAX_BACKOFF_MS);
    this.set({ state: 'reconnecting', problem: problem(this.alias, why, { severity: 'warning' }), retryAt: Date.now() + wait });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.attempt(), wait);
  }

  /**
   * Tries again now. With `acceptFingerprint`, the unknown key with exactly that fingerprint (the one the
   * user was shown) is added, on this attempt only: another key later is asked about again.
   */
  reconnect(acceptFingerprint?: string): void {
    clearTimeout(this.timer);
    this.set({ state: 'connecting', retryAt: null });
    void this.attempt(acceptFingerprint);
  }

  /** Resolves once connected; rejects when the host refuses us for good (key, authentication). */
  /** Resolves once connected; rejects, saying why, when the attempt under way (or the next) fails. */
  ready(): Promise<void> {
    if (this.status.state === 'connected') return Promise.resolve();
    if (this.status.state === 'failed') return Promise.reject(new Error(this.status.problem?.message ?? 'failed'));
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** The live SFTP channel; throws while disconnected (callers retry after the reconnect). */
  sftp(): SFTPWrapper {
    if (!this.transport) throw new HostUnavailableError(`${this.alias} is ${this.status.state}`);
    return this.transport.sftp;
  }

  /**
   * Runs a short command through the connection's commands (commands.ts): the login shell they start in is
   * paid once per connection, not once per command.
   */
  async exec(command: string, options?: { maxBytes?: number }) {
    if (!this.transport) throw new HostUnavailableError(`${this.alias} is ${this.status.state}`);
    try {
      return await this.transport.commands.run(command, options);
    } catch (error) {
      if (error instanceof HelperGone) throw new HostUnavailableError(`${this.alias}: ${error.message}`);
      throw error;
    }
  }

  /** Runs a command on the host, streaming: how nvidia-smi -lms samples a remote GPU over this connection. */
  spawn(command: string, args: string[]): Spawned {
    return this.stream(untilClosed(shellQuote([command, ...args])));
  }

  /** Runs a shell script on the host (as `sh -c` reads it), streaming its output. */
  stream(script: string): Spawned {
    if (!this.transport) throw new HostUnavailableError(`${this.alias} is ${this.status.state}`);
    return this.transport.commands.stream(script);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    clearTimeout(this.latencyTimer);
    this.transport?.commands.close();
    this.transport?.end();
    this.waiters.splice(0).forEach((w) => w.reject(new Error(`${this.alias}: closed`)));
  }
}
