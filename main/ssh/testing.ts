// A private sshd on 127.0.0.1 for tests: its own config, host key and user key in a temporary folder,
// and a client HOME whose ~/.ssh/config names it `testhost`.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { findTool } from '../../scripts/system-tools.mjs';

export interface TestSshd {
  port: number;
  dir: string;
  /** The client's HOME: .ssh/config (Host testhost), .ssh/id_ed25519, .ssh/known_hosts (empty). */
  home: string;
  hostKeyLine: string;
  stop(): Promise<void>;
  /** Kills the per-connection sshd processes, as a dropped network would, leaving the listener up. */
  cutSessions(): void;
  /** How many SSH connections were accepted (authenticated) since the server started, once its log is quiet. */
  connections(): Promise<number>;
  /** Takes the server down, sessions and listener, as a rebooting host would, until `up()`. */
  down(): Promise<void>;
  up(): Promise<void>;
}

/** A TCP port on 127.0.0.1 nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/**
 * `env`: set in every session (sshd's SetEnv), as a host's own profile would. Sessions get a HOME of their
 * own, empty, so that no test depends on this machine's dotfiles (a `.bashrc` that runs `pyenv init` queues
 * concurrent logins on its lock): a test of login shells writes the `.bashrc` it means into a HOME it sets,
 * and `ownHome` keeps the account's own. `trusted`: the client's known_hosts holds the server's key, so
 * connecting asks nothing. `config`: more sshd_config lines, whose `{dir}` is the server's folder
 * (`HostCertificate {dir}/host_key-cert.pub`). `listen`: its addresses (all loopback: 127.0.0.2 and up
 * answer too), 127.0.0.1 first.
 */
export async function startSshd({ env = {}, ownHome = false, trusted = false, config = [], listen = ['127.0.0.1'] }: { env?: Record<string, string>; ownHome?: boolean; trusted?: boolean; config?: string[]; listen?: string[] } = {}): Promise<TestSshd> {
  const dir = mkdtempSync(join(tmpdir(), 'cellwatch-sshd-'));
  const home = join(dir, 'home');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  const sessionHome = join(dir, 'session-home');
  mkdirSync(sessionHome);
  mkdirSync('/run/sshd', { recursive: true });
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'host_key')]);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(home, '.ssh', 'id_ed25519')]);
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(home, '.ssh', 'id_ed25519.pub')));
  const user = userInfo().username;
  let port = 0;
  const configure = () => {
    writeFileSync(
      join(dir, 'sshd_config'),
      [
        `Port ${port}`, ...listen.map((address) => `ListenAddress ${address}`), `HostKey ${join(dir, 'host_key')}`, `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
        `PidFile ${join(dir, 'sshd.pid')}`, 'StrictModes no', 'UsePAM no', 'PasswordAuthentication no', 'KbdInteractiveAuthentication no',
        'PubkeyAuthentication yes', 'PermitRootLogin prohibit-password', `AllowUsers ${user}`, 'Subsystem sftp internal-sftp', 'LogLevel INFO',
        // The suite's PATH on the host too (npm test gives it only the listed tools), unless a test sets its own.
        // One line: sshd takes the first SetEnv line only.
        `SetEnv ${Object.entries({ PATH: process.env.PATH ?? '', ...(ownHome ? {} : { HOME: sessionHome }), ...env }).map(([key, value]) => `${key}=${value}`).join(' ')}`,
        ...config.map((line) => line.replaceAll('{dir}', dir)),
      ].join('\n') + '\n',
    );
    writeFileSync(join(home, '.ssh', 'config'), `Host testhost\n  HostName 127.0.0.1\n  Port ${port}\n  User ${user}\n  IdentityFile ~/.ssh/id_ed25519\n${knownHostsConfig(home)}`);
  };
  let daemon: ChildProcess;
  let log = '';
  const up = async () => {
    daemon = spawn(findTool('sshd') ?? 'sshd', ['-D', '-e', '-f', join(dir, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
    daemon.stderr?.on('data', (chunk) => (log += chunk));
    // Ready once it accepts a TCP connection (a probe that listened itself could take the port first).
    for (let i = 0; i < 100; i++) {
      const listening = await new Promise<boolean>((resolve) => {
        const probe = connect(port, '127.0.0.1', () => (probe.destroy(), resolve(true)));
        probe.on('error', () => resolve(false));
      });
      if (listening) break;
      if (daemon.exitCode !== null) throw new Error(`sshd exited: ${log}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const cutSessions = () => {
    const listener = daemon.pid as number;
    const children = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim().split(/\s+/).map(Number))
      .filter(([, ppid]) => ppid === listener)
      .map(([pid]) => pid as number);
    for (const pid of children) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // A session that ended between the listing and now.
      }
    }
  };
  const down = async () => {
    if (daemon.exitCode !== null || daemon.signalCode !== null) return;
    // Stopped first, the listener accepts no session while the ones it has are cut: a client that retried
    // in between would otherwise get a session that outlives the listener.
    daemon.kill('SIGSTOP');
    cutSessions();
    const exited = new Promise((r) => daemon.once('exit', r));
    daemon.kill('SIGKILL');
    await exited;
  };
  // A free port can be taken by another process before sshd binds it: then another one.
  for (let tries = 1; ; tries++) {
    port = await freePort();
    configure();
    log = '';
    try {
      await up();
      break;
    } catch (error) {
      if (tries === 3 || !log.includes('Address already in use')) throw error;
    }
  }
  const hostKey = readFileSync(join(dir, 'host_key.pub'), 'utf8').trim().split(' ');
  writeFileSync(join(home, '.ssh', 'known_hosts'), trusted ? `[127.0.0.1]:${port} ${hostKey[0]} ${hostKey[1]}\n` : '');
  return {
    port,
    dir,
    home,
    hostKeyLine: `[127.0.0.1]:${port} ${hostKey[0]} ${hostKey[1]}`,
    cutSessions,
    async connections() {
      // Each connection's sshd logs on its own: wait until the log has been still for a moment.
      for (let seen = -1; seen !== log.length; ) {
        seen = log.length;
        await new Promise((r) => setTimeout(r, 150));
      }
      return log.match(/Accepted publickey/g)?.length ?? 0;
    },
    down,
    up,
    async stop() {
      await down();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The client home's known_hosts for every host: ssh reads `~/.ssh/known_hosts` in the passwd entry's home,
 * not in $HOME, so a client home of a test's own names its file.
 */
export function knownHostsConfig(home: string): string {
  return `Host *\n  UserKnownHostsFile ${join(home, '.ssh', 'known_hosts')}\n`;
}

/** A folder standing for /usr/bin without `missing` (a host that lacks a tool): for a session's PATH. */
export function binWithout(missing: string[], dir = mkdtempSync(join(tmpdir(), 'cellwatch-bin-'))): { path: string; remove(): void } {
  for (const name of readdirSync('/usr/bin')) if (!missing.includes(name)) symlinkSync(join('/usr/bin', name), join(dir, name));
  return { path: dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
