import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTool } from '../../scripts/system-tools.mjs';
import { startRealm, type TestRealm } from './kerberos-testing';
import { openConnection } from './connection';
import { RemoteHost } from './host';
import { resolveAlias } from './openssh';
import { startSshd, type TestSshd } from './testing';

// A host that lets users in by Kerberos alone (GSSAPI, as sites with a KDC run them): ssh2 speaks no
// GSSAPI, so Cellwatch gets in through the system's ssh, which takes the user's ticket.
let realm: TestRealm;
let sshd: TestSshd;

beforeAll(async () => {
  realm = await startRealm();
  sshd = await startSshd({ trusted: true, config: ['GSSAPIAuthentication yes', 'GSSAPIStrictAcceptorCheck no', 'AuthenticationMethods gssapi-with-mic'] });
  appendFileSync(join(sshd.home, '.ssh', 'config'), 'Host testhost\n  GSSAPIAuthentication yes\n');
});
afterAll(async () => {
  await sshd?.stop();
  await realm?.stop();
});

describe('a host that takes only a Kerberos ticket', () => {
  it('is reached through the system ssh with the user\'s ticket, where ssh2 is refused', async () => {
    const referee = execFileSync('ssh', ['-F', join(sshd.home, '.ssh', 'config'), '-o', 'BatchMode=yes', 'testhost', 'echo referee'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(referee).toBe('referee\n');
    await expect(openConnection(await resolveAlias('testhost', sshd.home))).rejects.toThrow(/authentication failed/);
    const host = new RemoteHost('testhost', { home: sshd.home, timeoutMs: 5000 });
    try {
      await host.ready();
      expect(host.status).toMatchObject({ state: 'connected', via: "OpenSSH (ssh2's keys and agent were refused)" });
      expect(await host.exec('echo $((6 * 7))')).toEqual({ stdout: '42\n', stderr: '', code: 0 });
      const stream = host.stream('echo streamed; sleep 30');
      expect(await new Promise((resolve) => stream.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString())))).toBe('streamed\n');
      stream.kill();
    } finally {
      host.close();
    }
  });

  it('says what both said when the user has no ticket', async () => {
    execFileSync(findTool('kdestroy') ?? 'kdestroy');
    const host = new RemoteHost('testhost', { home: sshd.home, timeoutMs: 5000 });
    try {
      await expect.poll(() => host.status.state).toBe('failed');
      expect(host.status.problem?.message).toMatch(/authentication failed.*the system's ssh did not get in either: .*Permission denied/);
    } finally {
      host.close();
    }
  });
});
