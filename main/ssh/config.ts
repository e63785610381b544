import { readdir, readFile } from 'node:fs/promises';
import { homedir, hostname, userInfo } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { append } from '../../shared/arrays';

/** Where `ssh ALIAS` would go, as ~/.ssh/config says. */
export interface HostConfig {
  alias: string;
  hostName: string;
  user: string;
  port: number;
  identityFiles: string[];
  proxyJump: string | null;
  /** A command whose stdin and stdout are the connection, its tokens expanded; null: none. */
  proxyCommand: string | null;
  /**
   * The agent's socket: `IdentityAgent` (a path, `~/...`, `$VAR` or `SSH_AUTH_SOCK`), else SSH_AUTH_SOCK; null
   * with `IdentityAgent none` or `IdentitiesOnly yes`, where the agent's keys are not offered to this host.
   */
  agent: string | null;
  /**
   * Whether the connection is compressed: yes unless `Compression no` (unlike ssh, whose default is no:
   * Cellwatch carries text logs, which shrink several times).
   */
  compression: boolean;
  /** The known-hosts files ssh reads, in order: the user's (new keys go to the first), then the system's. */
  userKnownHostsFiles: string[];
  globalKnownHostsFiles: string[];
  /** The name the host's key is kept under instead of its HostName (HostKeyAlias). */
  hostKeyAlias: string | null;
  /** CertificateFile: user certificates, which only the system's OpenSSH client can present. */
  certificateFiles: string[];
  /** ControlPath as written (ssh expands it); null: none. */
  controlPath: string | null;
  /** Resolved by `ssh -G`: the system's OpenSSH client exists and can carry the connection. */
  openssh: boolean;
}

/**
 * A `Host` block, or a `Match` block: `Match all`, `Match host|originalhost PATTERNS`. A Match on anything
 * else (exec, user, localuser, ...) is never taken: its options must not land on the host before it.
 */
interface Block {
  patterns: string[];
  options: Map<string, string[]>;
}

function matches(pattern: string, alias: string): boolean {
  const negated = pattern.startsWith('!');
  const glob = new RegExp(`^${(negated ? pattern.slice(1) : pattern).replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
  return glob.test(alias) !== negated;
}

const NEVER = '!*';

/** The Host-style patterns a Match line stands for. */
function matchPatterns(criteria: string): string[] {
  const words = criteria.trim().split(/\s+/);
  if (words.length === 1 && words[0]?.toLowerCase() === 'all') return ['*'];
  const [criterion, list] = words;
  if ((criterion?.toLowerCase() === 'host' || criterion?.toLowerCase() === 'originalhost') && list && words.length === 2) return list.split(',');
  return [NEVER];
}

/** Reads an Include's files: relative to ~/.ssh, a `*` matching in the last part of the path. */
export type ConfigReader = (pattern: string) => Promise<string[]>;

const MAX_INCLUDE_DEPTH = 16;

/** ~/.ssh/config as blocks, its Include lines read in place, as ssh does. */
export async function parseSshConfig(text: string, include: ConfigReader = async () => [], depth = 0): Promise<Block[]> {
  const blocks: Block[] = [{ patterns: ['*'], options: new Map() }];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const match = /^(\S+?)\s*(?:=|\s)\s*(.+)$/.exec(line);
    if (!match) continue;
    const key = (match[1] as string).toLowerCase();
    const value = (match[2] as string).replace(/^"(.*)"$/, '$1');
    if (key === 'host') blocks.push({ patterns: value.split(/\s+/), options: new Map() });
    else if (key === 'match') blocks.push({ patterns: matchPatterns(value), options: new Map() });
    else if (key === 'include') {
      if (depth >= MAX_INCLUDE_DEPTH) continue;
      // An Include inside a block belongs to that block: its own first lines go there.
      for (const file of value.split(/\s+/)) {
        for (const included of await include(file)) {
          const [head, ...rest] = await parseSshConfig(included, include, depth + 1);
          const current = blocks.at(-1) as Block;
          for (const [k, values] of head?.options ?? []) current.options.set(k, [...(current.options.get(k) ?? []), ...values]);
          append(blocks, rest);
        }
      }
    } else {
      const options = (blocks.at(-1) as Block).options;
      options.set(key, [...(options.get(key) ?? []), value]);
    }
  }
  return blocks;
}

const expand = (path: string, home: string) => (path === '~' || path.startsWith('~/') ? join(home, path.slice(1)) : path);

/** What the tokens of a path stand for on this connection. */
export interface Tokens {
  home: string;
  localUser: string;
  hostName: string;
  user: string;
  port: number;
  alias: string;
  env: NodeJS.ProcessEnv;
}

/** `~`, `%d %u %h %r %p %n %l %L %i %%` and `${VAR}` in a path, as ssh expands them at use. */
export function expandPath(value: string, t: Tokens): string {
  const short = hostname().split('.')[0] ?? hostname();
  const tokens: Record<string, string> = { d: t.home, u: t.localUser, h: t.hostName, r: t.user, p: String(t.port), n: t.alias, l: hostname(), L: short, i: String(userInfo().uid), '%': '%' };
  const tilde = value === '~' || value.startsWith('~/') ? join(t.home, value.slice(1)) : value;
  return tilde.replace(/%(.)/g, (whole, token: string) => tokens[token] ?? whole).replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => t.env[name] ?? '');
}

/** The agent socket an `IdentityAgent` value names, as ssh reads it (a path expanded by `expandPath`); SSH_AUTH_SOCK when it names none. */
export function agentSocket(value: string | undefined, env: NodeJS.ProcessEnv, expandPath: (path: string) => string): string | null {
  if (value === undefined || value === 'SSH_AUTH_SOCK') return env.SSH_AUTH_SOCK || null;
  if (value.toLowerCase() === 'none') return null;
  if (value.startsWith('$')) return env[value.slice(1).replace(/^\{(.*)\}$/, '$1')] || null;
  return expandPath(value);
}

/** Resolves an alias the way ssh does: the first value of each option wins, IdentityFile accumulates. */
export function resolveHost(alias: string, blocks: Block[], home = homedir(), user = process.env.USER ?? 'root', env: NodeJS.ProcessEnv = process.env): HostConfig {
  const first = new Map<string, string>();
  const identities: string[] = [];
  // The leading pseudo-block holds options before any Host line, which apply to every host.
  for (const block of blocks) {
    const applies = block.patterns.some((p) => !p.startsWith('!') && matches(p, alias)) && !block.patterns.some((p) => p.startsWith('!') && !matches(p, alias));
    if (!applies) continue;
    for (const [key, values] of block.options) {
      if (key === 'identityfile') append(identities, values.map((v) => expand(v, home)));
      else if (!first.has(key)) first.set(key, values[0] as string);
    }
  }
  const defaults = ['id_ed25519', 'id_ecdsa', 'id_rsa'].map((name) => join(home, '.ssh', name));
  const hostName = first.get('hostname')?.replace(/%h/g, alias) ?? alias;
  const port = Number(first.get('port') ?? 22);
  const remoteUser = first.get('user') ?? user;
  const command = first.get('proxycommand');
  return {
    alias,
    hostName,
    user: remoteUser,
    port,
    identityFiles: identities.length ? identities : defaults,
    proxyJump: first.get('proxyjump') && first.get('proxyjump') !== 'none' ? (first.get('proxyjump') as string) : null,
    proxyCommand: command && command !== 'none' ? expandPath(command, { home, localUser: user, hostName, user: remoteUser, port, alias, env }) : null,
    agent: first.get('identitiesonly')?.toLowerCase() === 'yes' ? null : agentSocket(first.get('identityagent'), env, (path) => expand(path, home)),
    compression: first.get('compression')?.toLowerCase() !== 'no',
    userKnownHostsFiles: (first.get('userknownhostsfile')?.split(/\s+/) ?? ['~/.ssh/known_hosts', '~/.ssh/known_hosts2']).map((f) => expand(f, home)),
    globalKnownHostsFiles: first.get('globalknownhostsfile')?.split(/\s+/) ?? ['/etc/ssh/ssh_known_hosts', '/etc/ssh/ssh_known_hosts2'],
    hostKeyAlias: first.get('hostkeyalias') ?? null,
    certificateFiles: [],
    controlPath: null,
    openssh: false,
  };
}

/** The files an Include names: `~` expanded, relative to ~/.ssh, `*` and `?` in the file name. */
export async function includeFiles(home: string, pattern: string): Promise<string[]> {
  const path = expand(pattern, home);
  const full = isAbsolute(path) ? path : join(home, '.ssh', path);
  const dir = dirname(full);
  const name = basename(full);
  return /[*?]/.test(name) ? ((await readdir(dir).catch(() => [])) as string[]).filter((n) => matches(name, n)).sort().map((n) => join(dir, n)) : [full];
}

function includeReader(home: string): ConfigReader {
  return async (pattern) => (await Promise.all((await includeFiles(home, pattern)).map((file) => readFile(file, 'utf8').catch(() => null)))).filter((t) => t !== null);
}

export async function loadSshConfig(home = homedir()): Promise<Block[]> {
  return parseSshConfig(await readFile(join(home, '.ssh', 'config'), 'utf8').catch(() => ''), includeReader(home));
}
