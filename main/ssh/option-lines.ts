// Where an option that failed was set: an error says "ProxyCommand ... (~/.ssh/config line 7)", so the
// user goes to the line, not through every file ssh reads.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expandPath, includeFiles, type HostConfig } from './config';

/** A connection failed on what options set: each option with the value it had for the host. */
export class OptionFailure extends Error {
  override name = 'OptionFailure';
  constructor(
    message: string,
    readonly options: [option: string, value: string][],
  ) {
    super(message);
  }
}

const MAX_DEPTH = 16;

/**
 * The first line of ~/.ssh/config (or a file it includes, or /etc/ssh/ssh_config) setting `option` to
 * `value` as written or once expanded for this host (`~/.ssh/%u_key`), as `~/.ssh/config line 4`; null
 * where no line does (a default, or the alias itself).
 */
export async function whereSet(host: HostConfig, option: string, value: string, home: string, env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  const tokens = { home, localUser: host.user, hostName: host.hostName, user: host.user, port: host.port, alias: host.alias, env };
  const wanted = option.toLowerCase();
  const seen = new Set<string>();
  const walk = async (file: string, depth: number): Promise<string | null> => {
    if (depth > MAX_DEPTH || seen.has(file)) return null;
    seen.add(file);
    const text = await readFile(file, 'utf8').catch(() => null);
    if (text === null) return null;
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const match = /^\s*([^\s=#]+)\s*(?:=|\s)\s*(.+?)\s*$/.exec(lines[i] as string);
      if (!match) continue;
      const key = (match[1] as string).toLowerCase();
      const written = (match[2] as string).replace(/^"(.*)"$/, '$1');
      if (key === 'include') {
        for (const pattern of written.split(/\s+/)) for (const included of await includeFiles(home, pattern)) {
          const found = await walk(included, depth + 1);
          if (found) return found;
        }
      } else if (key === wanted && (written === value || expandPath(written, tokens) === value)) {
        return `${file.startsWith(`${home}/`) ? `~${file.slice(home.length)}` : file} line ${i + 1}`;
      }
    }
    return null;
  };
  return (await walk(join(home, '.ssh', 'config'), 0)) ?? (await walk('/etc/ssh/ssh_config', 0));
}

/** The failure's message with, for each option behind it, the line that set it. */
export async function withOptionLines(error: Error, host: HostConfig, home: string): Promise<string> {
  if (!(error instanceof OptionFailure)) return error.message;
  const found = await Promise.all(error.options.map(async ([option, value]) => [option, value, await whereSet(host, option, value, home)] as const));
  const said = found.filter(([, , where]) => where).map(([option, value, where]) => `${option} ${value}: ${where}`);
  return said.length ? `${error.message} (${said.join('; ')})` : error.message;
}
