// How a host is reached, decided per connection: ssh2 (this process speaks SSH: measured faster to open
// and lighter per host) unless the host needs what only the system's OpenSSH client does (certificates,
// FIDO keys, a live ControlMaster), or ssh2's keys and agent do not get in and the system's ssh might
// (GSSAPI, its own agent setup). Host keys are as strict either way: unknown shown and taken only by
// fingerprint, changed or revoked refused.
import { homedir } from 'node:os';
import type { HostConfig } from './config';
import { HostKeyError, hostKeyError, keyNameOf, knownHostsFilesOf, openConnection, probeHostKey, sftp, type ConnectOptions } from './connection';
import { addKnownHost, fingerprint, readKnownHosts, verifyKnownHost } from './known-hosts';
import { OptionFailure } from './option-lines';
import { openSystemSsh, SystemSshError, systemSshReason } from './system-ssh';
import { ssh2Transport, type HostConnection } from './transport';

export type TransportOptions = ConnectOptions & { home?: string };

export async function connectTransport(host: HostConfig, options: TransportOptions): Promise<HostConnection> {
  const knownHosts = knownHostsFilesOf(host, options);
  const home = options.home ?? homedir();
  const why = await systemSshReason(host, (await Promise.all(knownHosts.map(readKnownHosts))).join('\n'), home);
  if (why) return throughSystemSsh(host, why, knownHosts, { ...options, home });
  let client;
  try {
    client = await openConnection(host, options);
  } catch (error) {
    if (!host.openssh || !/authentication failed/.test((error as Error).message)) throw error;
    try {
      return await throughSystemSsh(host, "ssh2's keys and agent were refused", knownHosts, { ...options, home });
    } catch (second) {
      const message = `${(error as Error).message}; the system's ssh did not get in either: ${(second as Error).message}`;
      throw error instanceof OptionFailure ? new OptionFailure(message, error.options) : new Error(message);
    }
  }
  try {
    return ssh2Transport(client, await sftp(client));
  } catch (error) {
    client.end();
    throw error;
  }
}

/**
 * The system's ssh checks host keys strictly and asks nothing: a key it does not know is fetched by a
 * handshake of Cellwatch's own, shown, and added only when accepted by its fingerprint.
 */
async function throughSystemSsh(host: HostConfig, why: string, knownHosts: string[], options: TransportOptions & { home: string }): Promise<HostConnection> {
  const open = () => openSystemSsh(host, why, { home: options.home, knownHostsFile: options.knownHostsFile, timeoutMs: options.timeoutMs });
  try {
    return await open();
  } catch (error) {
    if (!(error instanceof SystemSshError) || !error.kind.endsWith('-key')) throw error;
    const key = await probeHostKey(host, options);
    const text = (await Promise.all(knownHosts.map(readKnownHosts))).join('\n');
    const [name, port] = keyNameOf(host);
    const verdict = verifyKnownHost(text, name, port, key);
    const accepted = options.acceptNewHostKey || options.acceptFingerprint === fingerprint(key);
    if (verdict === 'unknown' && accepted) {
      await addKnownHost(knownHosts[0] as string, name, port, key);
      return open();
    }
    // ssh refused a key that known_hosts holds as it is (a host certificate it would not take): its words.
    if (verdict === 'match') throw error;
    const refused = hostKeyError(host, verdict, key, knownHosts, text);
    const certificate = /Certificate invalid[^\r\n]*/.exec(error.said)?.[0];
    throw certificate ? new HostKeyError(`${refused.message} ssh: ${certificate}`, refused.kind, refused.fingerprint) : refused;
  }
}
