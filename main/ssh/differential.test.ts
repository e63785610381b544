// The differential test of ~/.ssh/config: each form users write, checked against OpenSSH's own client as
// the referee (`ssh -o BatchMode=yes ALIAS true`) on a real sshd: Cellwatch reaches the host exactly when
// ssh does.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteHost } from './host';
import { startSshd, type TestSshd } from './testing';

let sshd: TestSshd;
const saved = { HOME: process.env.HOME, SSH_AUTH_SOCK: process.env.SSH_AUTH_SOCK };
const user = userInfo().username;

beforeAll(async () => {
  sshd = await startSshd({ trusted: true, listen: ['127.0.0.1', '127.0.0.2'] });
  process.env.HOME = sshd.home;
  delete process.env.SSH_AUTH_SOCK;
  const ssh = join(sshd.home, '.ssh');
  const key = join(ssh, 'id_ed25519');
  for (const name of [`${user}_key`, `key_127.0.0.1_${sshd.port}`]) copyFileSync(key, join(ssh, name));
  const [type, blob] = sshd.hostKeyLine.split(' ').slice(1);
  writeFileSync(join(ssh, 'other_known_hosts'), `${sshd.hostKeyLine}\n`);
  writeFileSync(join(ssh, 'alias_known_hosts'), `lab-gpu ${type} ${blob}\n`);
  writeFileSync(join(ssh, 'empty_known_hosts'), '');
  writeFileSync(join(ssh, 'second_known_hosts'), `[127.0.0.2]:${sshd.port} ${type} ${blob}\n`);
  mkdirSync(join(ssh, 'conf.d'), { recursive: true });
});
afterAll(async () => {
  process.env.HOME = saved.HOME;
  if (saved.SSH_AUTH_SOCK !== undefined) process.env.SSH_AUTH_SOCK = saved.SSH_AUTH_SOCK;
  await sshd?.stop();
});

/** The config forms: what users write, and whether ssh reaches the host with it. */
const FORMS = (home: string, port: number): [string, string, boolean][] => {
  const key = join(home, '.ssh', 'id_ed25519');
  const known = join(home, '.ssh', 'known_hosts');
  const other = join(home, '.ssh', 'other_known_hosts');
  const base = `  HostName 127.0.0.1\n  Port ${port}\n  User ${user}\n`;
  return [
    ['plain', `Host t\n${base}  IdentityFile ${key}\n  UserKnownHostsFile ${known}\n`, true],
    ['%u in IdentityFile', `Host t\n${base}  IdentityFile \${HOME}/.ssh/%u_key\n  UserKnownHostsFile ${known}\n`, true],
    ['%h and %p in IdentityFile', `Host t\n${base}  IdentityFile \${HOME}/.ssh/key_%h_%p\n  UserKnownHostsFile ${known}\n`, true],
    ['Match host, against the HostName', `Host t\n  HostName 127.0.0.1\nMatch host 127.0.0.1\n  Port ${port}\n  User ${user}\n  IdentityFile ${key}\n  UserKnownHostsFile ${known}\n`, true],
    ['Match originalhost', `Match originalhost t\n${base}  IdentityFile ${key}\n  UserKnownHostsFile ${known}\n`, true],
    ['Match localuser', `Host t\n  HostName 127.0.0.1\nMatch localuser ${user}\n  Port ${port}\n  User ${user}\n  IdentityFile ${key}\n  UserKnownHostsFile ${known}\n`, true],
    ['Match exec, false then true', `Match exec "false"\n  Port 1\nMatch exec "true"\n  Port ${port}\nHost t\n  HostName 127.0.0.1\n  User ${user}\n  IdentityFile ${key}\n  UserKnownHostsFile ${known}\n`, true],
    ['Include of a folder', `Include ${join(home, '.ssh', 'conf.d')}/*.conf\n`, true],
    ['UserKnownHostsFile elsewhere', `Host t\n${base}  IdentityFile ${key}\n  UserKnownHostsFile ${other}\n`, true],
    ['two UserKnownHostsFiles, the key in the second', `Host t\n${base}  IdentityFile ${key}\n  UserKnownHostsFile /nonexistent/known_hosts ${other}\n`, true],
    ['GlobalKnownHostsFile', `Host t\n${base}  IdentityFile ${key}\n  UserKnownHostsFile /dev/null\n  GlobalKnownHostsFile ${other}\n`, true],
    ['HostKeyAlias', `Host t\n${base}  IdentityFile ${key}\n  HostKeyAlias lab-gpu\n  UserKnownHostsFile ${join(home, '.ssh', 'alias_known_hosts')}\n`, true],
    ['ProxyJump, a chain of two', `Host hop1 hop2\n${base}  IdentityFile ${key}\n  UserKnownHostsFile ${known}\nHost t\n  HostName 127.0.0.1\n  Port ${port}\n  User ${user}\n  IdentityFile ${key}\n  UserKnownHostsFile ${known}\n  ProxyJump hop1,hop2\n`, true],
    ['ProxyJump user@host:port', `Host hop\n  HostName 127.0.0.1\n  Port 1\n  IdentityFile ${key}\n  UserKnownHostsFile ${known}\nHost t\n${base}  IdentityFile ${key}\n  UserKnownHostsFile ${known}\n  ProxyJump ${user}@hop:${port}\n`, true],
    ['ProxyCommand ssh -W', `Host hop\n${base}  IdentityFile ${key}\n  UserKnownHostsFile ${known}\nHost t\n${base}  IdentityFile ${key}\n  UserKnownHostsFile ${known}\n  ProxyCommand ssh -F ${join(home, '.ssh', 'config')} -o BatchMode=yes -W %h:%p hop\n`, true],
    ['a ProxyCommand that fails', `Host t\n${base}  IdentityFile ${key}\n  UserKnownHostsFile ${known}\n  ProxyCommand sh -c 'echo no route to %h >&2; exit 255'\n`, false],
    ['the second listen address', `Host t\n  HostName 127.0.0.2\n  Port ${port}\n  User ${user}\n  IdentityFile ${key}\n  UserKnownHostsFile ${join(home, '.ssh', 'second_known_hosts')}\n`, true],
    ['Match host on the second address', `Host t\n  HostName 127.0.0.2\nMatch host 127.0.0.2\n  Port ${port}\n  User ${user}\n  IdentityFile ${key}\n  UserKnownHostsFile ${join(home, '.ssh', 'second_known_hosts')}\n`, true],
    ['a key known under the other address only', `Host t\n  HostName 127.0.0.2\n  Port ${port}\n  User ${user}\n  IdentityFile ${key}\n  UserKnownHostsFile ${known}\n`, false],
    ['a ControlPath with no master behind it', `Host t\n${base}  IdentityFile ${key}\n  UserKnownHostsFile ${known}\n  ControlMaster no\n  ControlPath ${join(home, '.ssh', 'cm-%C')}\n`, true],
    ['a port nothing listens on', `Host t\n  HostName 127.0.0.1\n  Port 1\n  User ${user}\n  IdentityFile ${key}\n  UserKnownHostsFile ${known}\n`, false],
    ['no known key', `Host t\n${base}  IdentityFile ${key}\n  UserKnownHostsFile ${join(home, '.ssh', 'empty_known_hosts')}\n`, false],
    ['a key file the host does not take', `Host t\n${base}  IdentityFile \${HOME}/.ssh/missing_key\n  UserKnownHostsFile ${known}\n`, false],
  ];
};

function referee(home: string): Promise<boolean> {
  return new Promise((resolve) =>
    execFile('ssh', ['-F', join(home, '.ssh', 'config'), '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=5', 't', 'true'], { env: { ...process.env, HOME: home }, timeout: 15_000 }, (error) => resolve(!error)),
  );
}

async function cellwatch(home: string): Promise<boolean> {
  const host = new RemoteHost('t', { home, timeoutMs: 5000 });
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([host.ready().then(() => true, () => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 10_000)))]);
  } finally {
    clearTimeout(timer);
    host.close();
  }
}

describe('~/.ssh/config, form by form, against OpenSSH', () => {
  it('reaches the host exactly when ssh does', async () => {
    const results: string[] = [];
    for (const [form, config, expected] of FORMS(sshd.home, sshd.port)) {
      writeFileSync(join(sshd.home, '.ssh', 'config'), config);
      writeFileSync(join(sshd.home, '.ssh', 'conf.d', 'lab.conf'), `Host t\n  HostName 127.0.0.1\n  Port ${sshd.port}\n  User ${user}\n  IdentityFile ${join(sshd.home, '.ssh', 'id_ed25519')}\n  UserKnownHostsFile ${join(sshd.home, '.ssh', 'known_hosts')}\n`);
      const [ssh, ours] = [await referee(sshd.home), await cellwatch(sshd.home)];
      results.push(`${form}: ssh ${ssh ? 'reaches' : 'fails'}, cellwatch ${ours ? 'reaches' : 'fails'}`);
      expect(ssh, `${form}: the referee`).toBe(expected);
    }
    expect(results).toEqual(FORMS(sshd.home, sshd.port).map(([form, , expected]) => `${form}: ssh ${expected ? 'reaches' : 'fails'}, cellwatch ${expected ? 'reaches' : 'fails'}`));
    expect(readFileSync(join(sshd.home, '.ssh', 'empty_known_hosts'), 'utf8')).toBe('');
  }, 120_000);

  it('says what a failing ProxyCommand said, naming it and the line that set it', async () => {
    writeFileSync(join(sshd.home, '.ssh', 'config'), `Host t\n  HostName 127.0.0.1\n  Port ${sshd.port}\n  ProxyCommand sh -c 'echo no route to %h >&2; exit 255'\n`);
    const host = new RemoteHost('t', { home: sshd.home, timeoutMs: 5000 });
    try {
      await expect.poll(() => host.status.problem?.message).toMatch(/^t: ProxyCommand `sh -c 'echo no route to 127\.0\.0\.1 >&2; exit 255'` exited 255: no route to 127\.0\.0\.1/);
      expect(host.status.problem?.message).toMatch(/\(ProxyCommand sh -c .*: ~\/\.ssh\/config line 4\)$/);
    } finally {
      host.close();
    }
  });

  it('names the lines, in an included file too, behind a host it cannot reach or log in to', async () => {
    writeFileSync(join(sshd.home, '.ssh', 'conf.d', 'lab.conf'), `Host t\n  HostName 127.0.0.1\n\n  Port 1\n`);
    writeFileSync(join(sshd.home, '.ssh', 'config'), `Include conf.d/lab.conf\nHost u\n  HostName 127.0.0.1\n  Port ${sshd.port}\n  IdentityFile ~/.ssh/%u_wrong\n  UserKnownHostsFile ${join(sshd.home, '.ssh', 'known_hosts')}\n`);
    copyFileSync(join(sshd.dir, 'host_key'), join(sshd.home, '.ssh', `${user}_wrong`));
    const unreachable = new RemoteHost('t', { home: sshd.home, timeoutMs: 5000 });
    const refused = new RemoteHost('u', { home: sshd.home, timeoutMs: 5000 });
    try {
      await expect.poll(() => unreachable.status.problem?.message).toMatch(/^cannot reach t \(127\.0\.0\.1:1\).*\(HostName 127\.0\.0\.1: ~\/\.ssh\/conf\.d\/lab\.conf line 2; Port 1: ~\/\.ssh\/conf\.d\/lab\.conf line 4\)$/);
      await expect.poll(() => refused.status.problem?.message).toMatch(new RegExp(`authentication failed .*\\(IdentityFile ${join(sshd.home, '.ssh', `${user}_wrong`).replace(/[.]/g, '\\.')}: ~/\\.ssh/config line 5\\)$`));
    } finally {
      unreachable.close();
      refused.close();
    }
  });
});
