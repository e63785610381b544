import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteHost } from './host';
import { startSshd, type TestSshd } from './testing';

// A host whose login shell is slow and talkative, as `conda init` makes them: its .bashrc notes each run,
// prints a greeting and waits.
let sshd: TestSshd;
let hostHome: string;
let host: RemoteHost;
const shellsRun = () => readFileSync(join(hostHome, 'ran'), 'utf8').trim().split('\n').length;

beforeAll(async () => {
  hostHome = mkdtempSync(join(tmpdir(), 'cellwatch-slow-shell-'));
  writeFileSync(join(hostHome, '.bashrc'), `echo $$ >> ${join(hostHome, 'ran')}\necho 'Welcome to the cluster'\nsleep 0.3\n`);
  sshd = await startSshd({ env: { HOME: hostHome }, trusted: true });
  host = new RemoteHost('testhost', { home: sshd.home });
  await host.ready();
});
afterAll(async () => {
  host.close();
  await sshd.stop();
  rmSync(hostHome, { recursive: true, force: true });
});

describe('short commands on a host', () => {
  it('start the login shell once for many commands, and none of its greeting reaches them', async () => {
    const before = (await host.exec('true'), shellsRun());
    for (let i = 0; i < 20; i++) expect(await host.exec(`echo ${i}`)).toEqual({ stdout: `${i}\n`, stderr: '', code: 0 });
    expect(shellsRun()).toBe(before);
  });

  it('keep stdout, stderr and the exit code apart, whatever the command does to its shell', async () => {
    const start = (await host.exec('pwd')).stdout;
    expect(await host.exec('printf out; printf err >&2; exit 3')).toEqual({ stdout: 'out', stderr: 'err', code: 3 });
    expect(await host.exec('if then fi')).toMatchObject({ code: 2, stdout: '' });
    expect(await host.exec('cd /; export CW_X=1; exec true')).toMatchObject({ code: 0 });
    expect(await host.exec('pwd; echo "x${CW_X}x"; cat')).toEqual({ stdout: `${start}xx\n`, stderr: '', code: 0 });
    expect((await host.exec("printf 'a\\nb\\n\\n'")).stdout).toBe('a\nb\n\n');
  });

  it('keep multi-byte characters whole and stop a command that prints more than it may', async () => {
    expect((await host.exec(`head -c 200000 /dev/zero | tr '\\0' x | sed 's/x/é/g'`)).stdout).toBe('é'.repeat(200_000));
    await expect(host.exec('head -c 1000000 /dev/zero', { maxBytes: 100_000 })).rejects.toMatchObject({ name: 'OutputTooLarge', message: 'printed more than 98 KB; stopped' });
    expect((await host.exec('echo after')).stdout).toBe('after\n');
  });

  it('run side by side when one hangs, each in its own helper', async () => {
    let hungEnded = false;
    const hung = host.exec('sleep 3; echo slept').finally(() => (hungEnded = true));
    const quick = await Promise.all([1, 2, 3].map((i) => host.exec(`echo ${i}`)));
    expect(quick.map((a) => a.stdout)).toEqual(['1\n', '2\n', '3\n']);
    expect(hungEnded).toBe(false);
    expect((await hung).stdout).toBe('slept\n');
  });

  it('fail as unavailable when the connection drops under them, and work again once it is back', async () => {
    const cut = host.exec('sleep 5');
    await new Promise((r) => setTimeout(r, 300));
    sshd.cutSessions();
    await expect(cut).rejects.toMatchObject({ name: 'HostUnavailableError' });
    await expect.poll(() => host.status.state, { timeout: 10_000 }).toBe('connected');
    expect((await host.exec('echo back')).stdout).toBe('back\n');
  });
});
