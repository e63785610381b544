import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { append, largest } from '../../shared/arrays';
import { RemoteHost } from './host';
import { binWithout, startSshd, type TestSshd } from './testing';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Lines a stream printed, as they come. */
function linesOf(stream: NodeJS.ReadableStream): string[] {
  const lines: string[] = [];
  let pending = '';
  stream.on('data', (chunk: Buffer) => {
    const parts = (pending + chunk.toString()).split('\n');
    pending = parts.pop() as string;
    append(lines, parts);
  });
  return lines;
}

// A host whose login shell is slow and talkative, as `conda init` makes them: its .bashrc notes each run,
// prints a greeting (on stdout and stderr) and waits. With python3 every command, short or streaming, is a
// process of one mux under one login shell; without it, short commands go through sh helpers and each
// stream has a session (and a login shell) of its own.
describe.each([
  { way: 'with python3 (the mux)', python: true, broken: false },
  { way: 'without python3 (sh helpers)', python: false, broken: false },
  { way: 'whose python3 cannot start (sh helpers)', python: false, broken: true },
])('commands on a host $way', ({ python, broken }) => {
  let sshd: TestSshd;
  let hostHome: string;
  let host: RemoteHost;
  let bin: ReturnType<typeof binWithout> | undefined;
  const shellsRun = () => readFileSync(join(hostHome, 'ran'), 'utf8').trim().split('\n').length;

  beforeAll(async () => {
    hostHome = mkdtempSync(join(tmpdir(), 'cellwatch-slow-shell-'));
    writeFileSync(join(hostHome, '.bashrc'), `echo $$ >> ${join(hostHome, 'ran')}\necho 'Welcome to the cluster'\necho 'Quota: 80 %' >&2\nsleep 0.3\n`);
    bin = python || broken ? undefined : binWithout(['python3']);
    sshd = await startSshd({ env: { HOME: hostHome, ...(bin ? { PATH: bin.path } : {}), ...(broken ? { PYTHONHOME: '/nonexistent' } : {}) }, trusted: true });
    host = new RemoteHost('testhost', { home: sshd.home });
    await host.ready();
  });
  afterAll(async () => {
    host.close();
    await sshd.stop();
    bin?.remove();
    rmSync(hostHome, { recursive: true, force: true });
  });

  it('start the login shell once for many commands (and, with python3, for streams too); none of its greeting reaches them', async () => {
    const before = (await host.exec('true'), shellsRun());
    for (let i = 0; i < 20; i++) expect(await host.exec(`echo ${i}`)).toEqual({ stdout: `${i}\n`, stderr: '', code: 0 });
    const streams = [host.spawn('sh', ['-c', 'echo first; sleep 30']), host.stream('echo second; sleep 30')];
    const said = streams.map((s) => linesOf(s.stdout));
    await expect.poll(() => said).toEqual([['first'], ['second']]);
    expect(shellsRun()).toBe(python ? before : before + 2);
    // The Fleet view says how: one python3 process, or a login shell a stream.
    expect(host.status.commands).toBe(python ? 'python3' : 'sh');
    streams.forEach((s) => s.kill());
  });

  it('keep stdout, stderr and the exit code apart, whatever the command does to its shell', async () => {
    const start = (await host.exec('pwd')).stdout;
    expect(await host.exec('printf out; printf err >&2; exit 3')).toEqual({ stdout: 'out', stderr: 'err', code: 3 });
    expect(await host.exec('if then fi')).toMatchObject({ code: 2, stdout: '' });
    expect(await host.exec('cd /; export CW_X=1; exec true')).toMatchObject({ code: 0 });
    expect(await host.exec('pwd; echo "x${CW_X}x"; cat')).toEqual({ stdout: `${start}xx\n`, stderr: '', code: 0 });
    expect((await host.exec("printf 'a\\nb\\n\\n'")).stdout).toBe('a\nb\n\n');
  });

  it('keep multi-byte characters whole and stop a command that prints more than it may, again and again', async () => {
    // A command stopped while it prints ends with a signal on the host, mid-write: what follows stays whole.
    for (let i = 0; i < 3; i++) {
      expect((await host.exec(`head -c 200000 /dev/zero | tr '\\0' x | sed 's/x/é/g'`)).stdout).toBe('é'.repeat(200_000));
      await expect(host.exec('head -c 1000000 /dev/zero', { maxBytes: 100_000 })).rejects.toMatchObject({ name: 'OutputTooLarge', message: 'printed more than 98 KB; stopped' });
    }
    expect((await host.exec('echo after')).stdout).toBe('after\n');
  });

  it('run side by side when one hangs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cellwatch-hang-'));
    try {
      let hungEnded = false;
      // It hangs until the test lets it go, once the others have answered: no clock decides which ends first.
      const hung = host.exec(`while [ ! -e ${dir}/go ]; do sleep 0.05; done; echo slept`).finally(() => (hungEnded = true));
      const quick = await Promise.all([1, 2, 3].map((i) => host.exec(`echo ${i}`)));
      expect(quick.map((a) => a.stdout)).toEqual(['1\n', '2\n', '3\n']);
      expect(hungEnded).toBe(false);
      writeFileSync(join(dir, 'go'), '');
      expect((await hung).stdout).toBe('slept\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('run a burst a few at a time on the host, every command answered', async () => {
    // Each command counts the ones running beside it (itself included) while it sleeps.
    const dir = mkdtempSync(join(tmpdir(), 'cellwatch-burst-'));
    try {
      const answers = await Promise.all(Array.from({ length: 24 }, () => host.exec(`f=${dir}/$$; : > $f; sleep 0.3; ls ${dir} | wc -l; rm $f`)));
      const most = largest(answers.map((a) => Number(a.stdout)));
      expect(answers.every((a) => a.code === 0)).toBe(true);
      expect(most).toBeGreaterThan(1);
      expect(most).toBeLessThanOrEqual(python ? 16 : 4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('end a stream with everything it started when it is stopped, and say how it ended', async () => {
    const stream = host.spawn('sh', ['-c', 'sleep 60 & echo $!; wait']);
    const said = linesOf(stream.stdout);
    const ended = new Promise<[number | null, string | null]>((resolve) => stream.on('exit', (code, signal) => resolve([code, signal])));
    await expect.poll(() => said.length).toBe(1);
    const sleeper = Number(said[0]);
    expect(alive(sleeper)).toBe(true);
    stream.kill();
    await expect.poll(() => alive(sleeper)).toBe(false);
    await ended;
    const done = host.stream('echo done; exit 4');
    expect(await new Promise((resolve) => done.on('exit', (code) => resolve(code)))).toBe(4);
  });

  it('fail as unavailable when the connection drops under them, leave nothing running on the host, and work again once it is back', async () => {
    const cut = host.exec('sleep 5');
    const stream = host.spawn('sh', ['-c', 'sleep 60 & echo $!; wait']);
    const said = linesOf(stream.stdout);
    const streamEnded = new Promise((resolve) => stream.on('exit', resolve));
    await expect.poll(() => said.length).toBe(1);
    sshd.cutSessions();
    await expect(cut).rejects.toMatchObject({ name: 'HostUnavailableError' });
    await streamEnded;
    await expect.poll(() => alive(Number(said[0]))).toBe(false);
    await expect.poll(() => host.status.state).toBe('connected');
    expect((await host.exec('echo back')).stdout).toBe('back\n');
  });
});
