// The byte stream an SSH connection runs over, as OpenSSH makes it: TCP, a ProxyCommand's stdio, or a
// channel through each ProxyJump hop in turn.
import { spawn } from 'node:child_process';
import { connect as tcpConnect } from 'node:net';
import { Duplex } from 'node:stream';
import type { Client } from 'ssh2';
import type { HostConfig } from './config';
import { OptionFailure } from './option-lines';

/** What making the stream needs of the connection's options. */
export interface SocketOptions {
  timeoutMs?: number;
  /** Counts the bytes that arrive over the connection (benchmarks). */
  onBytesReceived?: (bytes: number) => void;
  /** Resolves a ProxyJump alias (from ~/.ssh/config). */
  resolveJump?: (alias: string) => Promise<HostConfig>;
}

/** Opens an SSH connection (connection.ts's openConnection): a jump host is one. */
type Open<O> = (host: HostConfig, options: O) => Promise<Client>;

/** The stream to the host: through its ProxyJump chain, its ProxyCommand, or TCP. */
export function socketTo<O extends SocketOptions>(host: HostConfig, options: O, open: Open<O>): Promise<Duplex> {
  if (host.proxyJump) return throughJump(host, options, open);
  if (host.proxyCommand) return throughCommand(host, options);
  return tcp(host, options);
}

/** What `ssh` says when it cannot connect, by the socket's error code; else the error's own message. */
function sshWords(host: HostConfig, error: NodeJS.ErrnoException): string {
  const connect = `connect to host ${host.hostName} port ${host.port}`;
  switch (error.code) {
    case 'ENOTFOUND':
      return `Could not resolve hostname ${host.hostName}: Name or service not known`;
    case 'EAI_AGAIN':
      return `Could not resolve hostname ${host.hostName}: Temporary failure in name resolution`;
    case 'ECONNREFUSED':
      return `${connect}: Connection refused`;
    case 'ETIMEDOUT':
      return `${connect}: Connection timed out`;
    case 'EHOSTUNREACH':
      return `${connect}: No route to host`;
    case 'ENETUNREACH':
      return `${connect}: Network is unreachable`;
    default:
      return error.message;
  }
}

/** A TCP connection to the host with Nagle off. */
function tcp(host: HostConfig, options: SocketOptions): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect({ host: host.hostName, port: host.port });
    socket.setNoDelay(true);
    if (options.onBytesReceived) socket.on('data', (chunk: Buffer) => options.onBytesReceived?.(chunk.length));
    socket.setTimeout(options.timeoutMs ?? 10_000, () => socket.destroy(Object.assign(new Error(`no answer from ${host.hostName}:${host.port}`), { code: 'ETIMEDOUT' })));
    socket.once('connect', () => (socket.setTimeout(0), resolve(socket)));
    // For the socket's whole life: an error after the connect (before ssh2 takes the socket) would end the process.
    socket.on('error', (error) => reject(new OptionFailure(`cannot reach ${host.alias} (${host.hostName}:${host.port}): ${sshWords(host, error)}`, [['HostName', host.hostName], ['Port', String(host.port)]])));
  });
}

/**
 * ProxyCommand: the command's stdin and stdout are the connection (`ssh -W %h:%p bastion`, `nc`, a
 * site's own script); one that ends before the handshake says how, with the last of its stderr.
 */
function throughCommand(host: HostConfig, options: SocketOptions): Promise<Duplex> {
  const command = host.proxyCommand as string;
  const child = spawn('sh', ['-c', command.startsWith('exec ') ? command : `exec ${command}`], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  if (options.onBytesReceived) child.stdout.on('data', (chunk: Buffer) => options.onBytesReceived?.(chunk.length));
  // Its output ends when the command does, and a write to a command that died is not the error: the
  // connection fails with what the command said.
  const sock = new Duplex({
    read: () => child.stdout.resume(),
    write: (chunk: Buffer, _encoding, done) => void child.stdin.write(chunk, () => done()),
    final: (done) => (child.stdin.end(), done()),
  });
  child.stdin.on('error', () => undefined);
  child.stdout.on('data', (chunk: Buffer) => sock.push(chunk) || child.stdout.pause());
  const ended = (why: string) => new OptionFailure(`ProxyCommand \`${command}\` ${why}${stderr.trim() ? `: ${stderr.trim().split('\n').slice(-2).join(' / ')}` : ''}`, [['ProxyCommand', command]]);
  // Heard for life: the handshake (or the connection) fails with what the command said.
  child.on('error', (error) => sock.destroy(ended(`could not start (${error.message})`)));
  child.on('close', (code, signal) => (code === 0 ? sock.push(null) : sock.destroy(ended(code === null ? `was killed (${signal})` : `exited ${code}`))));
  sock.on('close', () => child.kill());
  return Promise.resolve(sock);
}

/** A ProxyJump hop, `[user@]host[:port]`: an alias of ~/.ssh/config, its user and port overridden when given. */
function parseHop(hop: string): { alias: string; user: string | null; port: number | null } {
  const match = /^(?:([^@]+)@)?(\[[^\]]+\]|[^:@]+)(?::(\d+))?$/.exec(hop.trim());
  if (!match) return { alias: hop.trim(), user: null, port: null };
  return { alias: (match[2] as string).replace(/^\[(.*)\]$/, '$1'), user: match[1] ?? null, port: match[3] ? Number(match[3]) : null };
}

/**
 * The host's socket through its ProxyJump chain, as OpenSSH goes: `a,b` reaches b through a, then the host
 * through b; each hop is `[user@]host[:port]`, resolved as an alias of ~/.ssh/config.
 */
async function throughJump<O extends SocketOptions>(host: HostConfig, options: O, open: Open<O>): Promise<Duplex> {
  const hops = (host.proxyJump as string).split(',');
  const jumpAlias = hops.at(-1) as string;
  if (!options.resolveJump) throw new Error(`${host.alias}: ProxyJump ${jumpAlias} cannot be resolved here`);
  const hop = parseHop(jumpAlias);
  const resolved = await options.resolveJump(hop.alias);
  const before = hops.slice(0, -1).join(',');
  const jumpHost: HostConfig = { ...resolved, user: hop.user ?? resolved.user, port: hop.port ?? resolved.port, proxyJump: before || resolved.proxyJump };
  const jump = await open(jumpHost, { ...options, onBytesReceived: undefined });
  return new Promise((resolve, reject) => {
    jump.forwardOut('127.0.0.1', 0, host.hostName, host.port, (error, channel) => {
      if (error) {
        jump.end();
        return reject(new OptionFailure(`${host.alias}: the jump host ${jumpAlias} cannot reach ${host.hostName}:${host.port}: ${error.message}`, [['ProxyJump', host.proxyJump as string]]));
      }
      channel.on('close', () => jump.end());
      channel.on('error', () => channel.destroy());
      if (options.onBytesReceived) channel.on('data', (chunk: Buffer) => options.onBytesReceived?.(chunk.length));
      resolve(channel);
    });
  });
}
