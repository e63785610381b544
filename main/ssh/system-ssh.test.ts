import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAlias } from './openssh';
import { openConnection } from './connection';
import { RemoteHost } from './host';
import { restoreEnv } from '../../runners/testing';
import { startSshd, type TestSshd } from './testing';

// Hosts ssh2 cannot reach by itself, each made with OpenSSH's own tools: a user certificate, a host
// certificate, a ControlMaster the user keeps open. The referee is `ssh -o BatchMode=yes testhost true`.
let sshd: TestSshd;
const keygen = (...args: string[]) => execFileSync('ssh-keygen', ['-q', ...args]);
const file = (name: string) => join(sshd.dir, name);
const knownHosts = () => join(sshd.home, '.ssh', 'known_hosts');
const ssh = (...args: string[]) => execFileSync('ssh', ['-F', join(sshd.home, '.ssh', 'config'), '-o', 'BatchMode=yes', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const pub = (name: string) => readFileSync(file(name), 'utf8').trim().split(' ').slice(0, 2).join(' ');

async function connected(): Promise<RemoteHost> {
  const host = new RemoteHost('testhost', { home: sshd.home, timeoutMs: 5000 });
  await expect.poll(() => host.status.state).not.toBe('connecting');
  return host;
}

beforeAll(async () => {
  sshd = await startSshd({ config: ['TrustedUserCAKeys {dir}/user_ca.pub', 'HostCertificate {dir}/host_key-cert.pub'] });
  keygen('-t', 'ed25519', '-N', '', '-f', file('user_ca'));
  keygen('-t', 'ed25519', '-N', '', '-f', file('host_ca'));
  // ssh reads `~` as the passwd entry's home, not this test's: the key by its whole path.
  const config = join(sshd.home, '.ssh', 'config');
  writeFileSync(config, readFileSync(config, 'utf8').replace('~/.ssh/id_ed25519', join(sshd.home, '.ssh', 'id_ed25519')));
});
afterAll(() => sshd.stop());

describe('a host that takes only a user certificate', () => {
  beforeAll(() => {
    // Only the CA's signature lets the key in: it is in no authorized_keys.
    writeFileSync(file('authorized_keys'), '');
    keygen('-s', file('user_ca'), '-I', 'cellwatch-test', '-n', 'root', '-V', '-5m:+1h', join(sshd.home, '.ssh', 'id_ed25519.pub'));
    writeFileSync(knownHosts(), `${sshd.hostKeyLine}\n`);
  });

  it('is reached through the system ssh, where ssh2 alone is refused', async () => {
    expect(ssh('testhost', 'echo referee')).toBe('referee\n');
    await expect(openConnection(await resolveAlias('testhost', sshd.home))).rejects.toThrow(/authentication failed/);
    const host = await connected();
    try {
      expect(host.status).toMatchObject({ state: 'connected', via: `OpenSSH (the user certificate ${join(sshd.home, '.ssh', 'id_ed25519')}-cert.pub)` });
      expect(await host.exec('echo $((6 * 7)); echo to stderr >&2')).toEqual({ stdout: '42\n', stderr: 'to stderr\n', code: 0 });
      // Files come over SFTP through the same master connection.
      writeFileSync(file('note.txt'), 'read over sftp');
      const text = await new Promise<string>((resolve, reject) => host.sftp().readFile(file('note.txt'), (error, data) => (error ? reject(error) : resolve(data.toString()))));
      expect(text).toBe('read over sftp');
      const feed = host.stream(`sh -c 'echo streamed; sleep 30'`);
      const line = await new Promise<string>((resolve) => feed.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString())));
      expect(line).toBe('streamed\n');
      feed.kill();
    } finally {
      host.close();
    }
  });

  it('is dropped and reached again when its connection is cut', async () => {
    const host = await connected();
    try {
      expect(host.status.state).toBe('connected');
      sshd.cutSessions();
      await expect.poll(() => host.status.state).not.toBe('connected');
      await expect.poll(() => host.status.state).toBe('connected');
      expect((await host.exec('echo again')).stdout).toBe('again\n');
    } finally {
      host.close();
    }
  });
});

describe('a host that shows a host certificate', () => {
  const authority = () => `@cert-authority [127.0.0.1]:${sshd.port} ${pub('host_ca.pub')}\n`;
  const signHost = (principal: string) => keygen('-s', file('host_ca'), '-I', 'testhost', '-h', '-n', principal, '-V', '-5m:+1h', file('host_key.pub'));

  it('is checked against the @cert-authority line and reached with no key of its own in known_hosts', async () => {
    signHost('127.0.0.1');
    writeFileSync(knownHosts(), authority());
    expect(ssh('testhost', 'echo referee')).toBe('referee\n');
    const host = await connected();
    try {
      expect(host.status.state).toBe('connected');
      expect(host.status.via).toMatch(/^OpenSSH \(/);
      expect((await host.exec('echo certified')).stdout).toBe('certified\n');
    } finally {
      host.close();
    }
  });

  it('is refused when its certificate names another host, and shown with its plain key to accept', async () => {
    signHost('other.example');
    writeFileSync(knownHosts(), authority());
    expect(() => ssh('testhost', 'true')).toThrow();
    // The master's socket folder of a try that failed goes with it: a host refused is tried again and again.
    const sockets = mkdtempSync(join(tmpdir(), 'cellwatch-sockets-'));
    const saved = { ...process.env };
    process.env.TMPDIR = sockets;
    const host = await connected().finally(() => restoreEnv(saved));
    try {
      expect(host.status).toMatchObject({ state: 'failed', unknownKey: expect.stringMatching(/^SHA256:/) });
      expect(host.status.problem?.message).toMatch(/is not a known host; its ssh-ed25519 key is SHA256:.*ssh: Certificate invalid: name is not a listed principal/);
      await expect.poll(() => readdirSync(sockets)).toEqual([]);
      rmSync(sockets, { recursive: true });
      // Accepted by the fingerprint shown, the plain key is added and the host reached.
      host.reconnect(host.status.unknownKey as string);
      await expect.poll(() => host.status.state).toBe('connected');
      expect(readFileSync(knownHosts(), 'utf8')).toContain(`[127.0.0.1]:${sshd.port} ssh-ed25519`);
    } finally {
      host.close();
    }
  });

  it('is refused, whatever the certificate, when its key is @revoked', async () => {
    signHost('127.0.0.1');
    writeFileSync(knownHosts(), `${authority()}@revoked [127.0.0.1]:${sshd.port} ${pub('host_key.pub')}\n`);
    expect(() => ssh('testhost', 'true')).toThrow();
    const host = await connected();
    try {
      expect(host.status.state).toBe('failed');
      expect(host.status.problem?.message).toMatch(/is marked @revoked in/);
    } finally {
      host.close();
    }
  });
});

describe('a ControlMaster the user keeps open', () => {
  it('carries every session, and Cellwatch opens no connection of its own', async () => {
    plainHost();
    writeFileSync(knownHosts(), `${sshd.hostKeyLine}\n`);
    const config = join(sshd.home, '.ssh', 'config');
    writeFileSync(config, `${readFileSync(config, 'utf8')}Host testhost\n  ControlPath ${join(sshd.dir, 'cm-%C')}\n`);
    // The user's master, as one opened with a second factor would be: in the foreground, kept open.
    const master = spawn('ssh', ['-F', config, '-o', 'BatchMode=yes', '-M', '-N', 'testhost'], { stdio: 'ignore' });
    try {
      await expect.poll(masterUp).toBe(true);
      const before = await sshd.connections();
      const host = await connected();
      try {
        expect(host.status).toMatchObject({ state: 'connected', via: expect.stringMatching(/^OpenSSH \(the live ControlMaster at .*cm-[0-9a-f]{40}\)$/) });
        expect((await host.exec('echo through the master')).stdout).toBe('through the master\n');
        expect(await sshd.connections()).toBe(before);
      } finally {
        host.close();
      }
    } finally {
      master.kill();
    }
  });
});

/** A plain host and user again: no certificate on either side. */
function plainHost(): void {
  rmSync(file('host_key-cert.pub'), { force: true });
  rmSync(join(sshd.home, '.ssh', 'id_ed25519-cert.pub'), { force: true });
  writeFileSync(file('authorized_keys'), readFileSync(join(sshd.home, '.ssh', 'id_ed25519.pub')));
}

function masterUp(): boolean {
  try {
    ssh('-O', 'check', 'testhost');
    return true;
  } catch {
    return false;
  }
}
