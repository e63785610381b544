import { createHash, createHmac } from 'node:crypto';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export type KeyVerdict = 'match' | 'changed' | 'unknown';

/** How known_hosts names a host: `name`, or `[name]:port` off port 22. */
export function knownHostsName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

function nameMatches(field: string, name: string): boolean {
  if (field.startsWith('|1|')) {
    const [, , salt, hash] = field.split('|');
    return createHmac('sha1', Buffer.from(salt ?? '', 'base64')).update(name).digest('base64') === hash;
  }
  return field.split(',').includes(name);
}

/** The SHA256 fingerprint ssh prints: base64 without padding. */
export function fingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

/** The key type named inside a public key blob (its first SSH string), e.g. ssh-ed25519. */
export function keyTypeOf(key: Buffer): string {
  return key.subarray(4, 4 + key.readUInt32BE(0)).toString('ascii');
}

/** Whether `key` (the raw public key blob) is the one known_hosts holds for the host, another, or none. */
export function verifyKnownHost(text: string, host: string, port: number, key: Buffer): KeyVerdict {
  const keyType = keyTypeOf(key);
  const name = knownHostsName(host, port);
  let verdict: KeyVerdict = 'unknown';
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 3 || fields[0]?.startsWith('#') || fields[0]?.startsWith('@')) continue;
    const [names, type, blob] = fields as [string, string, string];
    if (!nameMatches(names, name) || type !== keyType) continue;
    if (Buffer.from(blob, 'base64').equals(key)) return 'match';
    verdict = 'changed';
  }
  return verdict;
}

export async function readKnownHosts(file: string): Promise<string> {
  return readFile(file, 'utf8').catch(() => '');
}

/** Adds a key the user accepted. */
export async function addKnownHost(file: string, host: string, port: number, key: Buffer): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await appendFile(file, `${knownHostsName(host, port)} ${keyTypeOf(key)} ${key.toString('base64')}\n`);
}
