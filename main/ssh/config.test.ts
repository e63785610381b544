import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../runners/testing';
import { loadSshConfig, parseSshConfig, resolveHost } from './config';
import { resolveAlias } from './openssh';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
  mkdirSync(join(tmp.path, '.ssh', 'config.d'), { recursive: true });
});
afterEach(() => tmp.remove());

describe('~/.ssh/config as ssh reads it', () => {
  it('keeps a Match block\'s options off the Host before it; takes Match all and Match host', async () => {
    const blocks = await parseSshConfig(['Host gpu1', '  HostName 10.0.0.1', 'Match exec "false"', '  User nobody', '  Port 2222', 'Match host gpu*', '  IdentityFile ~/.ssh/gpu_key', 'Match all', '  User me'].join('\n'));
    const gpu1 = resolveHost('gpu1', blocks, tmp.path);
    expect(gpu1).toMatchObject({ hostName: '10.0.0.1', user: 'me', port: 22, identityFiles: [join(tmp.path, '.ssh/gpu_key')] });
  });

  it('reads Include files in place, relative to ~/.ssh, with wildcards', async () => {
    writeFileSync(join(tmp.path, '.ssh', 'config'), 'Include config.d/*.conf\nHost *\n  User fallback\n');
    writeFileSync(join(tmp.path, '.ssh', 'config.d', 'lab.conf'), 'Host lab1\n  HostName lab1.example\n  Port 2200\n');
    writeFileSync(join(tmp.path, '.ssh', 'config.d', 'ignored.txt'), 'Host lab1\n  Port 1\n');
    const lab1 = resolveHost('lab1', await loadSshConfig(tmp.path), tmp.path);
    expect(lab1).toMatchObject({ hostName: 'lab1.example', port: 2200, user: 'fallback' });
  });

  it('offers the agent\'s keys only where IdentitiesOnly and IdentityAgent allow, from the socket IdentityAgent names', async () => {
    const blocks = await parseSshConfig(
      'Host strict\n  IdentitiesOnly yes\nHost noagent\n  IdentityAgent none\nHost own\n  IdentityAgent ~/.1password/agent.sock\nHost byvar\n  IdentityAgent $OTHER_SOCK\nHost named\n  IdentityAgent SSH_AUTH_SOCK\n',
    );
    const env = { SSH_AUTH_SOCK: '/run/agent.sock', OTHER_SOCK: '/run/other.sock' };
    const agent = (alias: string) => resolveHost(alias, blocks, tmp.path, 'me', env).agent;
    expect(agent('strict')).toBeNull();
    expect(agent('noagent')).toBeNull();
    expect(agent('own')).toBe(join(tmp.path, '.1password/agent.sock'));
    expect(agent('byvar')).toBe('/run/other.sock');
    expect(agent('named')).toBe('/run/agent.sock');
    expect(agent('other')).toBe('/run/agent.sock');
    expect(resolveHost('other', blocks, tmp.path, 'me', {}).agent).toBeNull();
  });
});

describe('ssh -G on a HOME that is not the passwd entry\'s', () => {
  it('resolves an alias where that home has no ~/.ssh/config, and by its config once it has one', async () => {
    // ssh -F names the only file ssh reads, and fails on one that does not exist ("Can't open user config file").
    expect(await resolveAlias('gpu-node.example', tmp.path)).toMatchObject({ hostName: 'gpu-node.example', port: 22 });
    writeFileSync(join(tmp.path, '.ssh', 'config'), 'Host gpu\n  HostName 10.1.2.3\n  Port 2222\n');
    expect(await resolveAlias('gpu', tmp.path)).toMatchObject({ hostName: '10.1.2.3', port: 2222 });
  });
});
