import { createHash, createHmac } from 'node:crypto';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export type KeyVerdict = 'match' | 'changed' | 'unknown' | 'revoked';

/** How known_hosts names a host: `name`, or `[name]:port` off port 22. */
export function knownHostsName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

function nameMatches(field: string, name: string): boolean {
  if (field.startsWith('|1|')) {
    const [, , salt, hash] = field.split('|');
    return createHmac('sha1', Buffer.from(salt ?? '', 'base64')).update(name).digest('base64') === hash;
  }
  // Patterns as OpenSSH reads them: `*` and `?` wildcards, and a `!pattern` that matches excludes the host.
  let matched = false;
  for (const pattern of field.split(',')) {
    const negated = pattern.startsWith('!');
    if (!globMatches(negated ? pattern.slice(1) : pattern, name)) continue;
    if (negated) return false;
    matched = true;
  }
  return matched;
}

function globMatches(pattern: string, name: string): boolean {
  return new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`).test(name);
}

/** The SHA256 fingerprint ssh prints: base64 without padding. */
export function fingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

/** The key type named inside a public key blob (its first SSH string), e.g. ssh-ed25519. */
export function keyTypeOf(key: Buffer): string {
  return key.subarray(4, 4 + key.readUInt32BE(0)).toString('ascii');
}

/**
 * Whether `key` (the raw public key blob) is one known_hosts holds for the host, another (of any type: as
 * OpenSSH, a known host that shows a key it does not list has changed), none, or one marked @revoked.
 */
export function verifyKnownHost(text: string, host: string, port: number, key: Buffer): KeyVerdict {
  const name = knownHostsName(host, port);
  let verdict: KeyVerdict = 'unknown';
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields[0]?.startsWith('#')) continue;
    const marker = fields[0]?.startsWith('@') ? fields.shift() : undefined;
    if (fields.length < 3) continue;
    const [names, , blob] = fields as [string, string, string];
    const same = Buffer.from(blob, 'base64').equals(key);
    // A revoked key is refused for every host; its line's names do not matter.
    if (marker === '@revoked') {
      if (same) return 'revoked';
      continue;
    }
    // Certificate authorities sign certificates, which Cellwatch does not check: such a line says nothing of plain keys.
    if (marker !== undefined || !nameMatches(names, name)) continue;
    if (same) verdict = 'match';
    else if (verdict === 'unknown') verdict = 'changed';
  }
  return verdict;
}

/**
 * Whether a @cert-authority line names the host. Its key signs host certificates, which ssh2 cannot check,
 * so the host's plain key is asked about as an unknown one, as OpenSSH does when no certificate is shown.
 */
export function trustsCertificateAuthority(text: string, host: string, port: number): boolean {
  const name = knownHostsName(host, port);
  return text.split('\n').some((line) => {
    const [marker, names] = line.trim().split(/\s+/);
    return marker === '@cert-authority' && names !== undefined && nameMatches(names, name);
  });
}

export async function readKnownHosts(file: string): Promise<string> {
  return readFile(file, 'utf8').catch(() => '');
}

/** Adds a key the user accepted. */
export async function addKnownHost(file: string, host: string, port: number, key: Buffer): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await appendFile(file, `${knownHostsName(host, port)} ${keyTypeOf(key)} ${key.toString('base64')}\n`);
}
