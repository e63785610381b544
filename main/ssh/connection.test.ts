import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSshConfig, resolveHost } from './config';
import { openConnection } from './connection';
import { hostCommands } from './commands';
import { sessionsOn } from './transport';
import { knownHostsConfig, startSshd, type TestSshd } from './testing';

let sshd: TestSshd;
beforeAll(async () => {
  sshd = await startSshd();
});
afterAll(async () => sshd?.stop());

const host = async () => resolveHost('testhost', await loadSshConfig(sshd.home), sshd.home);
const knownHostsFile = () => join(sshd.home, '.ssh', 'known_hosts');

describe('SSH to a real sshd', () => {
  it('resolves the alias like ssh does', async () => {
    expect(await host()).toMatchObject({ alias: 'testhost', hostName: '127.0.0.1', port: sshd.port, identityFiles: [join(sshd.home, '.ssh/id_ed25519')], proxyJump: null });
  });

  it('refuses an unknown host key, showing its SHA256 fingerprint, unless accepted', async () => {
    writeFileSync(knownHostsFile(), '');
    const expected = execFileSync('ssh-keygen', ['-lf', join(sshd.dir, 'host_key.pub')], { encoding: 'utf8' }).split(' ')[1];
    await expect(openConnection(await host(), { knownHostsFile: knownHostsFile() })).rejects.toThrow(`is not a known host; its ssh-ed25519 key is ${expected}`);
    const client = await openConnection(await host(), { knownHostsFile: knownHostsFile(), acceptNewHostKey: true });
    expect((await hostCommands(sessionsOn(client)).run('echo hello')).stdout).toBe('hello\n');
    client.end();
    expect(readFileSync(knownHostsFile(), 'utf8')).toBe(`${sshd.hostKeyLine}\n`);
  });

  it('refuses a changed host key with a warning, even when new keys are accepted', async () => {
    const other = execFileSync('sh', ['-c', `ssh-keygen -q -t ed25519 -N '' -f ${join(sshd.dir, 'other')} && cat ${join(sshd.dir, 'other.pub')}`], { encoding: 'utf8' }).trim().split(' ');
    writeFileSync(knownHostsFile(), `[127.0.0.1]:${sshd.port} ${other[0]} ${other[1]}\n`);
    await expect(openConnection(await host(), { knownHostsFile: knownHostsFile(), acceptNewHostKey: true })).rejects.toThrow(/has CHANGED to ssh-ed25519 SHA256:.*refusing to connect/);
  });

  it('treats a key of another type than the one known as changed, not as unknown', async () => {
    const rsa = execFileSync('sh', ['-c', `ssh-keygen -q -t rsa -b 2048 -N '' -f ${join(sshd.dir, 'rsa')} && cat ${join(sshd.dir, 'rsa.pub')}`], { encoding: 'utf8' }).trim().split(' ');
    writeFileSync(knownHostsFile(), `[127.0.0.1]:${sshd.port} ${rsa[0]} ${rsa[1]}\n`);
    await expect(openConnection(await host(), { knownHostsFile: knownHostsFile(), acceptNewHostKey: true })).rejects.toThrow(/has CHANGED/);
    expect(readFileSync(knownHostsFile(), 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('refuses a key marked @revoked, whatever else known_hosts says', async () => {
    const [type, blob] = sshd.hostKeyLine.split(' ').slice(1);
    writeFileSync(knownHostsFile(), `${sshd.hostKeyLine}\n@revoked * ${type} ${blob}\n`);
    await expect(openConnection(await host(), { knownHostsFile: knownHostsFile() })).rejects.toThrow(/marked @revoked/);
  });

  it('never takes a @cert-authority key for the host key by itself: asks, saying only the system ssh checks certificates', async () => {
    const [, type, blob] = sshd.hostKeyLine.split(' ');
    writeFileSync(knownHostsFile(), `@cert-authority [127.0.0.*]:* ${type} ${blob}\n`);
    await expect(openConnection(await host(), { knownHostsFile: knownHostsFile() })).rejects.toThrow(
      `is not a known host; its ssh-ed25519 key is ${execFileSync('ssh-keygen', ['-lf', join(sshd.dir, 'host_key.pub')], { encoding: 'utf8' }).split(' ')[1]}. Accept it to connect (no key for [127.0.0.1]:${sshd.port} in ${knownHostsFile()}). ${knownHostsFile()} trusts a certificate authority for it, which only the system's ssh can check, and it is not installed`,
    );
  });

  it('reads host patterns as OpenSSH does: wildcards match, a matching !pattern excludes', async () => {
    const [, type, blob] = sshd.hostKeyLine.split(' ');
    writeFileSync(knownHostsFile(), `[127.0.0.?]:${sshd.port},other ${type} ${blob}\n`);
    (await openConnection(await host(), { knownHostsFile: knownHostsFile() })).end();
    writeFileSync(knownHostsFile(), `[127.0.0.?]:${sshd.port},![127.0.0.1]:* ${type} ${blob}\n`);
    await expect(openConnection(await host(), { knownHostsFile: knownHostsFile() })).rejects.toThrow('is not a known host');
  });

  it('accepts exactly the fingerprint the user was shown, and no other', async () => {
    writeFileSync(knownHostsFile(), '');
    await expect(openConnection(await host(), { knownHostsFile: knownHostsFile(), acceptFingerprint: 'SHA256:someotherkey' })).rejects.toThrow('is not a known host');
    const shown = execFileSync('ssh-keygen', ['-lf', join(sshd.dir, 'host_key.pub')], { encoding: 'utf8' }).split(' ')[1];
    const client = await openConnection(await host(), { knownHostsFile: knownHostsFile(), acceptFingerprint: shown });
    client.end();
    expect(readFileSync(knownHostsFile(), 'utf8')).toBe(`${sshd.hostKeyLine}\n`);
  });

  it('refuses a wrong user key, naming what it tried', async () => {
    writeFileSync(knownHostsFile(), `${sshd.hostKeyLine}\n`);
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(sshd.dir, 'wrong_key')]);
    const wrong = { ...(await host()), identityFiles: [join(sshd.dir, 'wrong_key')] };
    await expect(openConnection(wrong, { knownHostsFile: knownHostsFile() })).rejects.toThrow(`authentication failed (tried the agent and ${join(sshd.dir, 'wrong_key')})`);
  });

  it('keeps what a command prints as bytes until it ends, and stops a command that prints more than it may', async () => {
    const client = await openConnection(await host(), { knownHostsFile: knownHostsFile(), acceptNewHostKey: true });
    try {
      // 200,000 two-byte characters: split between packets anywhere, each stays whole.
      expect((await hostCommands(sessionsOn(client)).run(`head -c 200000 /dev/zero | tr '\\0' x | sed 's/x/é/g'`)).stdout).toBe('é'.repeat(200_000));
      await expect(hostCommands(sessionsOn(client)).run('head -c 1000000 /dev/zero', { maxBytes: 100_000 })).rejects.toMatchObject({ name: 'OutputTooLarge', message: 'printed more than 98 KB; stopped' });
    } finally {
      client.end();
    }
  });

  it('says a host it cannot reach', async () => {
    await expect(openConnection({ ...(await host()), port: 1 }, { knownHostsFile: knownHostsFile() })).rejects.toThrow('cannot reach testhost (127.0.0.1:1)');
  });
});

describe('a host that never completes the handshake', () => {
  // A hung sshd or a tarpit accepts TCP and says nothing; an endless banner talks and never says SSH-2.0; an
  // sshd killed mid-handshake (under load, a dropped link) has said SSH-2.0 and goes.
  const servers = {
    'says nothing': () => undefined,
    'says SSH-2.0, then closes as the key exchange starts': (socket: Socket) => {
      socket.write('SSH-2.0-OpenSSH_9.2\r\n');
      socket.once('data', () => socket.destroy());
    },
    'sends an endless banner': (socket: Socket) => {
      const timer = setInterval(() => socket.write('hello, this is not ssh yet\r\n'), 20);
      socket.on('close', () => clearInterval(timer));
    },
  };
  it.each(Object.entries(servers))('that %s: the connection fails with a reason, and nothing is left to end the process', async (_, speak) => {
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      speak(socket);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const uncaught: Error[] = [];
    const hear = (error: Error) => uncaught.push(error);
    process.on('uncaughtException', hear);
    try {
      const port = (server.address() as AddressInfo).port;
      await expect(openConnection({ ...(await host()), port }, { knownHostsFile: knownHostsFile(), timeoutMs: 300 })).rejects.toThrow(/testhost: .*(handshake|Timed out)/i);
      // ssh2 reports the failed handshake twice: the second report comes once the socket is gone.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', hear);
      sockets.forEach((socket) => socket.destroy());
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('an encrypted user key', () => {
  it('asks for its passphrase, and connects with it', async () => {
    writeFileSync(knownHostsFile(), `${sshd.hostKeyLine}\n`);
    const key = join(sshd.home, '.ssh', 'id_ed25519');
    execFileSync('ssh-keygen', ['-q', '-p', '-N', 'open sesame', '-f', key]);
    try {
      await expect(openConnection(await host(), { knownHostsFile: knownHostsFile() })).rejects.toThrow(`${key} is encrypted: enter its passphrase`);
      const client = await openConnection(await host(), { knownHostsFile: knownHostsFile(), passphrases: new Map([[key, 'open sesame']]) });
      expect((await hostCommands(sessionsOn(client)).run('echo unlocked')).stdout).toBe('unlocked\n');
      client.end();
    } finally {
      execFileSync('ssh-keygen', ['-q', '-p', '-P', 'open sesame', '-N', '', '-f', key]);
    }
  });
});

describe('ssh config beyond one hop', () => {
  it('tries each key file in turn, and goes through a ProxyJump host', async () => {
    writeFileSync(knownHostsFile(), `${sshd.hostKeyLine}\n`);
    const { parseSshConfig } = await import('./config');
    const { RemoteHost } = await import('./host');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(sshd.dir, 'unrelated_key')]);
    const config = `Host testhost\n  HostName 127.0.0.1\n  Port ${sshd.port}\n  IdentityFile ${join(sshd.dir, 'unrelated_key')}\n  IdentityFile ~/.ssh/id_ed25519\nHost behind\n  HostName 127.0.0.1\n  Port ${sshd.port}\n  ProxyJump testhost\n  IdentityFile ~/.ssh/id_ed25519\n${knownHostsConfig(sshd.home)}`;
    writeFileSync(join(sshd.home, '.ssh', 'config'), config);
    expect(resolveHost('behind', await parseSshConfig(config), sshd.home).proxyJump).toBe('testhost');
    const host = new RemoteHost('behind', { home: sshd.home, knownHostsFile: knownHostsFile() });
    try {
      await host.ready();
      expect((await host.exec('echo through the jump')).stdout).toBe('through the jump\n');
    } finally {
      host.close();
    }
  });

  it('authenticates with the agent on the socket IdentityAgent names, when no key file is there', async () => {
    writeFileSync(knownHostsFile(), `${sshd.hostKeyLine}\n`);
    const { parseSshConfig } = await import('./config');
    const socket = join(sshd.dir, 'agent.sock');
    const pid = Number(/SSH_AGENT_PID=(\d+)/.exec(execFileSync('ssh-agent', ['-s', '-a', socket], { encoding: 'utf8' }))?.[1]);
    try {
      execFileSync('ssh-add', ['-q', join(sshd.home, '.ssh', 'id_ed25519')], { env: { ...process.env, SSH_AUTH_SOCK: socket }, stdio: 'ignore' });
      const config = await parseSshConfig(`Host viaagent\n  HostName 127.0.0.1\n  Port ${sshd.port}\n  IdentityFile ${join(sshd.dir, 'no-such-key')}\n  IdentityAgent ${socket}\n`);
      // SSH_AUTH_SOCK names another agent, or none: the one IdentityAgent names is asked.
      const client = await openConnection(resolveHost('viaagent', config, sshd.home, undefined, {}), { knownHostsFile: knownHostsFile() });
      expect((await hostCommands(sessionsOn(client)).run('echo by the agent')).stdout).toBe('by the agent\n');
      client.end();
    } finally {
      process.kill(pid);
    }
  });
});
