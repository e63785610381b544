// ~/.ssh/config as OpenSSH itself reads it: `ssh -G ALIAS` prints every option resolved (Host, Match host
// against the HostName, Match exec and localuser, Include, the defaults), and Cellwatch uses what it
// prints. Paths it leaves as written (`~/.ssh/%u_key`, `${HOME}/key`) are expanded at use as
// ssh_config(5)'s TOKENS section says (config.ts's expandPath, which the built-in parser uses too).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import { agentSocket, expandPath, loadSshConfig, resolveHost, type HostConfig, type Tokens } from './config';

/** What `ssh -G` printed: each option (lower case) with its values, in order. */
export function parseSshG(output: string): Map<string, string[]> {
  const options = new Map<string, string[]>();
  for (const line of output.split('\n')) {
    const space = line.indexOf(' ');
    if (space <= 0) continue;
    const key = line.slice(0, space).toLowerCase();
    options.set(key, [...(options.get(key) ?? []), line.slice(space + 1)]);
  }
  return options;
}

/** ssh -G failed: it says why, and which file and line (`~/.ssh/config line 3: Bad configuration option`). */
export class SshConfigError extends Error {
  override name = 'SshConfigError';
}

/**
 * Where `ssh ALIAS` goes: as OpenSSH's own `ssh -G` resolves it, or, where no OpenSSH client exists, as
 * the built-in parser (config.ts) reads ~/.ssh/config. Compression is Cellwatch's own default (yes unless
 * the config says no), which `ssh -G` cannot tell apart from OpenSSH's (no): the parser says it.
 */
export async function resolveAlias(alias: string, home = homedir(), env: NodeJS.ProcessEnv = process.env): Promise<HostConfig> {
  const parsed = resolveHost(alias, await loadSshConfig(home), home, undefined, env);
  return (await resolveWithOpenSsh(alias, home, parsed.compression, env)) ?? parsed;
}

/** The system-wide config ssh reads beside a user's. */
const SYSTEM_CONFIG = '/etc/ssh/ssh_config';

/**
 * ssh reads the passwd entry's ~/.ssh/config (and /etc/ssh/ssh_config); another home (HOME set elsewhere: a
 * test's, a container's) is named with -F, which then is the only file ssh reads, and which must exist: where
 * that home has no config, ssh as it reads no user config (the system's, or none), never "Can't open user
 * config file".
 */
export function configFileArgs(home: string): string[] {
  if (home === userInfo().homedir) return [];
  const own = join(home, '.ssh', 'config');
  return ['-F', existsSync(own) ? own : existsSync(SYSTEM_CONFIG) ? SYSTEM_CONFIG : '/dev/null'];
}

/** The alias as `ssh -G` prints it; null where no `ssh` client exists. */
async function resolveWithOpenSsh(alias: string, home: string, compression: boolean, env: NodeJS.ProcessEnv): Promise<HostConfig | null> {
  const printed = await new Promise<string | null>((resolve, reject) => {
    execFile('ssh', ['-G', ...configFileArgs(home), '--', alias], { env, timeout: 10_000, windowsHide: true }, (error, stdout, stderr) => {
      if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT') return resolve(null);
      if (error) return reject(new SshConfigError(`${alias}: ssh -G says ${(stderr || error.message).trim().split('\n').join('; ')}`));
      resolve(stdout);
    });
  });
  if (printed === null) return null;
  const o = parseSshG(printed);
  const one = (key: string) => o.get(key)?.[0];
  const hostName = one('hostname') ?? alias;
  const user = one('user') ?? userInfo().username;
  const port = Number(one('port') ?? 22);
  const tokens: Tokens = { home, localUser: userInfo().username, hostName, user, port, alias, env };
  const paths = (key: string) => (o.get(key) ?? []).flatMap((v) => v.split(/\s+/)).filter((v) => v && v !== 'none').map((v) => expandPath(v, tokens));
  const jump = one('proxyjump');
  const command = one('proxycommand');
  const control = one('controlpath');
  return {
    alias,
    hostName,
    user,
    port,
    identityFiles: paths('identityfile'),
    proxyJump: jump && jump !== 'none' ? jump : null,
    proxyCommand: command && command !== 'none' ? expandPath(command, tokens) : null,
    agent: one('identitiesonly') === 'yes' ? null : agentSocket(one('identityagent'), env, (path) => expandPath(path, tokens)),
    compression,
    userKnownHostsFiles: paths('userknownhostsfile'),
    globalKnownHostsFiles: paths('globalknownhostsfile'),
    hostKeyAlias: one('hostkeyalias') ?? null,
    certificateFiles: paths('certificatefile'),
    controlPath: control && control !== 'none' ? control : null,
    openssh: true,
  };
}
