import { readFile } from 'node:fs/promises';
import type { Duplex } from 'node:stream';
import type { AgentAuthMethod, Client, ConnectConfig, PublicKeyAuthMethod, SFTPWrapper } from 'ssh2';
import type { HostConfig } from './config';
import { OptionFailure } from './option-lines';
import { socketTo, type SocketOptions } from './socket';
import { addKnownHost, fingerprint, keyTypeOf, knownHostsName, readKnownHosts, trustsCertificateAuthority, verifyKnownHost } from './known-hosts';

export class HostKeyError extends Error {
  override name = 'HostKeyError';
  constructor(
    message: string,
    readonly kind: 'unknown' | 'changed' | 'revoked',
    readonly fingerprint: string,
  ) {
    super(message);
  }
}

/** The key file is encrypted and no passphrase was given: the window asks for one. */
export class PassphraseNeeded extends Error {
  override name = 'PassphraseNeeded';
  constructor(readonly keyFile: string) {
    super(`${keyFile} is encrypted: enter its passphrase (kept in memory only)`);
  }
}

export interface ConnectOptions extends SocketOptions {
  knownHostsFile?: string;
  /** Add any unknown host key instead of refusing it (the CLI's --accept-new-host-key, for one command). */
  acceptNewHostKey?: boolean;
  /** Add the unknown host key with exactly this fingerprint: the one the user was shown and said yes to. */
  acceptFingerprint?: string;
  /** Passphrases for encrypted keys, by file; never stored. */
  passphrases?: Map<string, string>;
}

async function readKey(file: string): Promise<Buffer | null> {
  return readFile(file).catch(() => null);
}

/** The known-hosts files a host's key is checked against, in order (new keys go to the first). */
export function knownHostsFilesOf(host: HostConfig, options: Pick<ConnectOptions, 'knownHostsFile'>): string[] {
  return options.knownHostsFile ? [options.knownHostsFile] : [...host.userKnownHostsFiles, ...host.globalKnownHostsFiles];
}

/** The name a host's key is kept under: HostKeyAlias, else the HostName (with its port when not 22). */
export function keyNameOf(host: HostConfig): [string, number] {
  return host.hostKeyAlias ? [host.hostKeyAlias, 22] : [host.hostName, host.port];
}

/** Why a host key that is not the known one is refused, naming the files read and the name looked for. */
export function hostKeyError(host: HostConfig, verdict: 'unknown' | 'changed' | 'revoked', key: Buffer, knownHosts: string[], knownHostsText: string): HostKeyError {
  const print = fingerprint(key);
  const files = knownHosts.join(' or ');
  const where = `${host.alias} (${host.hostName}:${host.port})`;
  if (verdict === 'revoked') return new HostKeyError(`the host key of ${where}, ${keyTypeOf(key)} ${print}, is marked @revoked in ${files}; refusing to connect.`, 'revoked', print);
  if (verdict === 'changed') return new HostKeyError(`the host key of ${where} has CHANGED to ${keyTypeOf(key)} ${print}; refusing to connect. If the server was reinstalled, remove its old line from ${files}.`, 'changed', print);
  const [name, port] = keyNameOf(host);
  const authority = trustsCertificateAuthority(knownHostsText, name, port) ? ` ${files} trusts a certificate authority for it, which only the system's ssh can check, and it is not installed: compare the fingerprint with the server's before accepting.` : '';
  return new HostKeyError(`${where} is not a known host; its ${keyTypeOf(key)} key is ${print}. Accept it to connect (no key for ${knownHostsName(name, port)} in ${files}).${authority}`, 'unknown', print);
}

/** The host's key, from a handshake that goes no further (for a connection the system's ssh makes). */
export async function probeHostKey(host: HostConfig, options: ConnectOptions = {}): Promise<Buffer> {
  const sock = await socketTo(host, options, openConnection);
  const { default: ssh2 } = await import('ssh2');
  const client = new ssh2.Client();
  return new Promise((resolve, reject) => {
    let key: Buffer | undefined;
    client.on('error', (error: Error) => {
      sock.destroy();
      if (key) resolve(key);
      else reject(new Error(`${host.alias}: ${error.message}`));
    });
    // Closed mid-handshake, ssh2 says nothing but its close (see handshake).
    client.once('close', () => (key ? resolve(key) : reject(new Error(`${host.alias}: the connection closed during the handshake`))));
    client.connect({ sock, username: host.user, readyTimeout: options.timeoutMs ?? 10_000, hostVerifier: (offered: Buffer, verify: (ok: boolean) => void) => ((key = offered), verify(false)) });
  });
}

/**
 * One SSH connection to a host: TCP with Nagle off (SFTP reads crawl without), host key checked
 * against known_hosts (unknown refused unless accepted, changed always refused), agent and key files.
 */
export async function openConnection(host: HostConfig, options: ConnectOptions = {}): Promise<Client> {
  const knownHosts = knownHostsFilesOf(host, options);
  const keys = (await Promise.all(host.identityFiles.map(async (file) => ({ file, key: await readKey(file) })))).filter((k) => k.key !== null);
  const sock = await socketTo(host, options, openConnection);
  return handshake(host, sock, keys, knownHosts, options);
}

async function handshake(host: HostConfig, sock: Duplex, keys: { file: string; key: Buffer | null }[], knownHosts: string[], options: ConnectOptions): Promise<Client> {
  const [keyName, keyPort] = keyNameOf(host);
  const addTo = knownHosts[0] as string;
  let keyProblem: HostKeyError | undefined;
  // Loaded on the first connection: a command that reaches no host does not pay for it.
  const { default: ssh2 } = await import('ssh2');
  const client = new ssh2.Client();
  const config: ConnectConfig = {
    sock,
    username: host.user,
    readyTimeout: options.timeoutMs ?? 10_000,
    // A dead connection is given up after 45 s without an answer; a fleet's keepalives stay cheap.
    keepaliveInterval: 15_000,
    keepaliveCountMax: 3,
    algorithms: { compress: host.compression ? ['zlib@openssh.com', 'zlib', 'none'] : ['none'] },
    hostVerifier: (key: Buffer, verify: (ok: boolean) => void) => {
      void Promise.all(knownHosts.map(readKnownHosts)).then(async (texts) => {
        const text = texts.join('\n');
        const verdict = verifyKnownHost(text, keyName, keyPort, key);
        if (verdict === 'match') return verify(true);
        if (verdict === 'unknown' && (options.acceptNewHostKey || options.acceptFingerprint === fingerprint(key))) {
          await addKnownHost(addTo, keyName, keyPort, key);
          return verify(true);
        }
        keyProblem = hostKeyError(host, verdict, key, knownHosts, text);
        verify(false);
      });
    },
  };
  // The agent first, then each key file in turn, as ssh does; an encrypted key is skipped until unlocked.
  const methods: (AgentAuthMethod | PublicKeyAuthMethod)[] = host.agent ? [{ type: 'agent', username: host.user, agent: host.agent }] : [];
  let locked: string | undefined;
  for (const { file, key } of keys) {
    const passphrase = options.passphrases?.get(file);
    const parsed = ssh2.utils.parseKey(key as Buffer, passphrase);
    if (parsed instanceof Error) {
      if (/passphrase/i.test(parsed.message)) locked ??= file;
      continue;
    }
    methods.push({ type: 'publickey', username: host.user, key: key as Buffer, ...(passphrase === undefined ? {} : { passphrase }) });
  }
  if (methods.length === 0 && locked) {
    sock.destroy();
    throw new PassphraseNeeded(locked);
  }
  config.authHandler = methods;
  return new Promise((resolve, reject) => {
    let settled = false;
    client.once('ready', () => {
      settled = true;
      resolve(client);
    });
    // Heard for the client's whole life: ssh2 can report a failed handshake twice (a timeout, then
    // "Connection lost before handshake"), and an error nobody hears ends the process.
    client.on('error', (error: Error & { level?: string }) => {
      sock.destroy();
      if (settled) return;
      settled = true;
      if (keyProblem) return reject(keyProblem);
      if (error.level === 'client-authentication') {
        const message = `${host.user}@${host.alias}: authentication failed (tried the agent and ${keys.map((k) => k.file).join(', ') || 'no key file'})`;
        return reject(new OptionFailure(message, keys.map((k): [string, string] => ['IdentityFile', k.file])));
      }
      reject(error instanceof OptionFailure ? new OptionFailure(`${host.alias}: ${error.message}`, error.options) : new Error(`${host.alias}: ${error.message}`));
    });
    // A connection that closes once the server has said SSH-2.0 (mid key exchange or authentication: an
    // sshd killed, a dropped link) is told by ssh2 with its close alone, no error and no ready timeout left:
    // heard here, or the attempt waits for ever and the host is never tried again.
    client.once('close', () => {
      if (settled) return;
      settled = true;
      reject(new Error(`${host.alias}: the connection closed during the handshake`));
    });
    client.connect(config);
  });
}

/** The SFTP channel; rejected when the connection ends first (ssh2 may otherwise never answer). */
export function sftp(client: Client): Promise<SFTPWrapper> {
  return new Promise((resolve, reject) => {
    const ended = () => reject(new Error('the connection closed before its SFTP channel opened'));
    client.once('close', ended);
    client.sftp((error, wrapper) => {
      client.removeListener('close', ended);
      if (error) return reject(error);
      // A protocol error on the channel: its pending requests fail; the host's own listeners see the close.
      wrapper.on('error', () => undefined);
      resolve(wrapper);
    });
  });
}
