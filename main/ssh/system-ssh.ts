// The system's OpenSSH client as the transport, for what ssh2 cannot do: user certificates, host
// certificates, FIDO keys, GSSAPI, and logins that need a person (2FA) through the ControlMaster the user
// keeps open. One master connection per host (Cellwatch's own, or the user's live one); helpers, streamed
// commands and SFTP (`ssh -s sftp`, spoken by ssh2's own SFTP client) are sessions multiplexed over it.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SFTPWrapper } from 'ssh2';
import type { Spawned } from '../programs';
import { onlyFirst } from '../../shared/once';
import type { HostConfig } from './config';
import type { Session } from './helper';
import { hostCommands } from './commands';
import { knownHostsName, trustsCertificateAuthority } from './known-hosts';
import { configFileArgs } from './openssh';
import { keyNameOf } from './connection';
import type { HostConnection } from './transport';

const exists = (path: string) => stat(path).then(() => true, () => false);

/** `ssh -O check ALIAS`: a master connection is up at the host's ControlPath. */
function masterRunning(host: HostConfig, home: string): Promise<boolean> {
  return new Promise((resolve) => execFile('ssh', [...configFileArgs(home), '-O', 'check', '--', host.alias], { timeout: 5000 }, (error) => resolve(!error)));
}

/**
 * Why this host needs the system's ssh; null where ssh2 can do all it asks. `knownHosts` is the text of the
 * known-hosts files the host's key is checked against.
 */
export async function systemSshReason(host: HostConfig, knownHosts: string, home: string): Promise<string | null> {
  if (!host.openssh) return null;
  if (host.certificateFiles[0]) return `CertificateFile ${host.certificateFiles[0]}`;
  for (const file of host.identityFiles) {
    // ssh offers `<key>-cert.pub` beside a key by itself.
    if (await exists(`${file}-cert.pub`)) return `the user certificate ${file}-cert.pub`;
    if ((await readFile(`${file}.pub`, 'utf8').catch(() => '')).startsWith('sk-')) return `the FIDO key ${file}`;
  }
  const [name, port] = keyNameOf(host);
  if (trustsCertificateAuthority(knownHosts, name, port)) return `host certificates: a @cert-authority line for ${knownHostsName(name, port)}`;
  if (host.controlPath && (await masterRunning(host, home))) return `the live ControlMaster at ${host.controlPath}`;
  return null;
}

/** What the system's ssh said when it could not connect, as the error Cellwatch shows. */
export class SystemSshError extends Error {
  override name = 'SystemSshError';
  constructor(
    message: string,
    readonly kind: 'unknown-key' | 'changed-key' | 'revoked-key' | 'authentication' | 'other',
    readonly said: string,
  ) {
    super(message);
  }
}

function classify(host: HostConfig, said: string, code: number | null): SystemSshError {
  const lines = said.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !/^@+$|^@ *$/.test(l));
  const last = lines.slice(-2).join(' / ') || `ssh exited ${code ?? 'by signal'}`;
  const kind = /REMOTE HOST IDENTIFICATION HAS CHANGED/.test(said)
    ? 'changed-key'
    : /REVOKED HOST KEY/.test(said)
      ? 'revoked-key'
      : /host key is known for|Host key verification failed/.test(said)
        ? 'unknown-key'
        : /Permission denied/.test(said)
          ? 'authentication'
          : 'other';
  return new SystemSshError(kind === 'authentication' ? `${host.user}@${host.alias}: authentication failed (the system's ssh: ${last})` : `${host.alias}: ssh says: ${last}`, kind, said);
}

/** A process of the system's ssh as a session. */
function processSession(child: ChildProcess): Session {
  return {
    stdin: child.stdin as NodeJS.WritableStream,
    stdout: child.stdout as NodeJS.ReadableStream,
    stderr: child.stderr as NodeJS.ReadableStream,
    close: () => void child.kill(),
    onEnd(listener) {
      const end = onlyFirst(listener);
      child.on('error', end);
      child.once('close', () => end());
    },
  };
}

interface SftpConstructor {
  new (client: unknown, chanInfo: unknown, config: unknown): SFTPWrapper & { push(data: Buffer | null): void; _init(): void };
}

/**
 * ssh2's SFTP client over a process's stdio (`ssh -s ALIAS sftp`): it is written against a channel, of
 * which it uses the outgoing window, `channelData` and `channelClose`; this gives it those.
 */
function sftpOver(child: ChildProcess, alias: string): Promise<SFTPWrapper> {
  const { SFTP } = createRequire(import.meta.url)('ssh2/lib/protocol/SFTP.js') as { SFTP: SftpConstructor };
  const stdin = child.stdin as NodeJS.WritableStream;
  const protocol = { _remoteIdentRaw: 'SSH-2.0-OpenSSH', channelData: (_id: number, data: Buffer) => stdin.write(data), channelClose: () => stdin.end() };
  const outgoing = { id: 0, state: 'open', window: Number.POSITIVE_INFINITY, packetSize: 32 * 1024 };
  const sftp = new SFTP({ _protocol: protocol }, { type: 'session', incoming: { id: 0, state: 'open', window: Number.POSITIVE_INFINITY, packetSize: 32 * 1024 }, outgoing }, {});
  let said = '';
  child.stderr?.on('data', (chunk: Buffer) => (said = (said + chunk.toString()).slice(-2000)));
  child.stdout?.on('data', (chunk: Buffer) => sftp.push(chunk));
  child.stdin?.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    sftp.once('ready', () => resolve(sftp));
    sftp.on('error', () => undefined);
    child.once('close', (code) => {
      outgoing.state = 'closed';
      sftp.push(null);
      sftp.emit('close');
      reject(new Error(`${alias}: the SFTP session ended (exit ${code ?? 'by signal'})${said.trim() ? `: ${said.trim()}` : ''}`));
    });
    sftp._init();
  });
}

export interface SystemSshOptions {
  home: string;
  knownHostsFile?: string;
  timeoutMs?: number;
}

/**
 * Connects through the system's ssh: the user's live ControlMaster when `why` says there is one, else a
 * master of Cellwatch's own (BatchMode, host keys checked strictly: nothing is asked or added here).
 */
export async function openSystemSsh(host: HostConfig, why: string, options: SystemSshOptions): Promise<HostConnection> {
  const common = [...configFileArgs(options.home), '-o', 'BatchMode=yes', '-o', 'StrictHostKeyChecking=yes', ...(options.knownHostsFile ? ['-o', `UserKnownHostsFile=${options.knownHostsFile}`] : [])];
  const theirs = why.startsWith('the live ControlMaster');
  const dir = theirs ? null : await mkdtemp(join(tmpdir(), 'cw-ssh-'));
  const socket = dir ? join(dir, 'master') : null;
  const mux = ['-o', 'ControlMaster=no', ...(socket ? ['-o', `ControlPath=${socket}`] : [])];
  const removeDir = () => {
    if (dir) void rm(dir, { recursive: true, force: true });
  };
  // A host that does not resolve or refuses us is tried again and again: each try's folder goes with it.
  const master = socket
    ? await startMaster(host, common, socket, options.timeoutMs ?? 10_000).catch((error: unknown) => {
        removeDir();
        throw error;
      })
    : null;
  const session = (args: string[]) => spawn('ssh', [...common, ...mux, ...args], { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
  const cleanUp = () => {
    master?.kill();
    removeDir();
  };
  let sftpChild: ChildProcess;
  let sftp: SFTPWrapper;
  try {
    sftpChild = session(['-s', '--', host.alias, 'sftp']);
    sftp = await sftpOver(sftpChild, host.alias);
  } catch (error) {
    cleanUp();
    throw error;
  }
  const commands = hostCommands({
    open: async (commandLine) => processSession(session(['--', host.alias, commandLine])),
    stream(commandLine): Spawned {
      const child = session(['--', host.alias, commandLine]);
      child.stdin?.on('error', () => undefined);
      return {
        pid: undefined,
        stdout: child.stdout as NodeJS.ReadableStream,
        stderr: child.stderr,
        // Ending the local ssh closes the session, and with it the command's input.
        kill: () => void child.kill(),
        on: (event: 'exit' | 'error', listener: never) => child.on(event, listener),
      } as Spawned;
    },
  });
  const closers: (() => void)[] = [];
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    commands.close();
    cleanUp();
    closers.forEach((listener) => listener());
  };
  // The SFTP session lives as long as the connection: the master going takes it along.
  sftpChild.once('close', close);
  master?.once('close', close);
  return {
    via: `OpenSSH (${why})`,
    sftp,
    commands,
    onClose: (listener) => void closers.push(listener),
    end: () => {
      sftpChild.kill();
      close();
    },
  };
}

/** Starts a master connection listening at `socket`; resolves once it is logged in, rejects with what ssh said. */
async function startMaster(host: HostConfig, common: string[], socket: string, timeoutMs: number): Promise<ChildProcess> {
  const seconds = String(Math.max(1, Math.round(timeoutMs / 1000)));
  const args = [...common, '-N', '-o', 'ControlMaster=yes', '-o', `ControlPath=${socket}`, '-o', 'ControlPersist=no', '-o', `ConnectTimeout=${seconds}`, '-o', 'ServerAliveInterval=15', '-o', 'ServerAliveCountMax=3', '--', host.alias];
  const master = spawn('ssh', args, { stdio: ['ignore', 'ignore', 'pipe'], windowsHide: true });
  let said = '';
  master.stderr?.on('data', (chunk: Buffer) => (said = (said + chunk.toString()).slice(-4000)));
  let exited: { code: number | null } | null = null;
  let failedToStart: Error | null = null;
  master.once('exit', (code) => (exited = { code }));
  master.on('error', (error) => (failedToStart = error));
  const deadline = Date.now() + timeoutMs + 5000;
  for (;;) {
    if (failedToStart) throw new SystemSshError(`${host.alias}: could not run ssh: ${(failedToStart as Error).message}`, 'other', '');
    if (exited) throw classify(host, said, (exited as { code: number | null }).code);
    if (await exists(socket)) return master;
    if (Date.now() > deadline) {
      master.kill();
      throw new SystemSshError(`${host.alias}: ssh did not log in within ${Math.round(timeoutMs / 1000)} s${said.trim() ? `: ${said.trim()}` : ''}`, 'other', said);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}
