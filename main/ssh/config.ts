import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where `ssh ALIAS` would go, as ~/.ssh/config says. */
export interface HostConfig {
  alias: string;
  hostName: string;
  user: string;
  port: number;
  identityFiles: string[];
  proxyJump: string | null;
}

interface Block {
  patterns: string[];
  options: Map<string, string[]>;
}

function matches(pattern: string, alias: string): boolean {
  const negated = pattern.startsWith('!');
  const glob = new RegExp(`^${(negated ? pattern.slice(1) : pattern).replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
  return glob.test(alias) !== negated;
}

export function parseSshConfig(text: string): Block[] {
  const blocks: Block[] = [{ patterns: ['*'], options: new Map() }];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const match = /^(\S+?)\s*(?:=|\s)\s*(.+)$/.exec(line);
    if (!match) continue;
    const key = (match[1] as string).toLowerCase();
    const value = (match[2] as string).replace(/^"(.*)"$/, '$1');
    if (key === 'host') blocks.push({ patterns: value.split(/\s+/), options: new Map() });
    else {
      const options = (blocks.at(-1) as Block).options;
      options.set(key, [...(options.get(key) ?? []), value]);
    }
  }
  return blocks;
}

const expand = (path: string, home: string) => (path === '~' || path.startsWith('~/') ? join(home, path.slice(1)) : path);

/** Resolves an alias the way ssh does: the first value of each option wins, IdentityFile accumulates. */
export function resolveHost(alias: string, blocks: Block[], home = homedir(), user = process.env.USER ?? 'root'): HostConfig {
  const first = new Map<string, string>();
  const identities: string[] = [];
  // The leading pseudo-block holds options before any Host line, which apply to every host.
  for (const block of blocks) {
    const applies = block.patterns.some((p) => !p.startsWith('!') && matches(p, alias)) && !block.patterns.some((p) => p.startsWith('!') && !matches(p, alias));
    if (!applies) continue;
    for (const [key, values] of block.options) {
      if (key === 'identityfile') identities.push(...values.map((v) => expand(v, home)));
      else if (!first.has(key)) first.set(key, values[0] as string);
    }
  }
  const defaults = ['id_ed25519', 'id_ecdsa', 'id_rsa'].map((name) => join(home, '.ssh', name));
  return {
    alias,
    hostName: first.get('hostname')?.replace(/%h/g, alias) ?? alias,
    user: first.get('user') ?? user,
    port: Number(first.get('port') ?? 22),
    identityFiles: identities.length ? identities : defaults,
    proxyJump: first.get('proxyjump') && first.get('proxyjump') !== 'none' ? (first.get('proxyjump') as string) : null,
  };
}

export async function loadSshConfig(home = homedir()): Promise<Block[]> {
  return parseSshConfig(await readFile(join(home, '.ssh', 'config'), 'utf8').catch(() => ''));
}

/** `ssh://ALIAS/abs/path` or `ALIAS:/abs/path` → host and path; null for a local path. */
export function parseRemote(address: string): { alias: string; path: string } | null {
  const url = /^ssh:\/\/([^/]+)(\/.*)$/.exec(address);
  if (url) return { alias: url[1] as string, path: url[2] as string };
  const scp = /^([A-Za-z0-9_.@-]+):(\/.*)$/.exec(address);
  return scp ? { alias: scp[1] as string, path: scp[2] as string } : null;
}
