// A host that does not keep to the protocol: the mux runner's frames, its first session's hello, the change
// feed's lines. Their bytes are the host's to write, and a hostile or broken one must not hold the client.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { hostCommands } from './commands';
import type { Session } from './helper';
import { Mux } from './mux';
import { append } from '../../shared/arrays';
import { HostFeed } from './feed';
import type { RemoteHost } from './host';

function session_() {
  const stdout = new PassThrough();
  const stdin = new PassThrough();
  const sent: string[] = [];
  stdin.on('data', (chunk: Buffer) => append(sent, chunk.toString().split('\n').filter(Boolean)));
  const ends: ((error?: Error) => void)[] = [];
  let closed = false;
  const s: Session = {
    stdin,
    stdout,
    stderr: new PassThrough(),
    close: () => {
      if (closed) return;
      closed = true;
      ends.forEach((end) => end());
    },
    onEnd: (listener) => void ends.push(listener),
  };
  return { session: s, host: stdout, sent, closed: () => closed };
}

describe('the mux, read from a host that breaks the framing', () => {
  it('gives each command its output and exit however the frames are cut into chunks', async () => {
    const { session, host } = session_();
    const mux = new Mux(session, Buffer.alloc(0));
    const answers = [mux.run('a'), mux.run('b')];
    const wire = Buffer.from('1 o 5\nhello2 e 3\nerr1 o 1\n!2 x 1\n01 x 1\n3');
    // One byte a chunk: every boundary falls inside a header or a frame somewhere.
    for (let i = 0; i < wire.length; i++) host.write(wire.subarray(i, i + 1));
    expect(await answers[0]).toEqual({ stdout: 'hello!', stderr: '', code: 3 });
    expect(await answers[1]).toEqual({ stdout: '', stderr: 'err', code: 0 });
  });

  it('closes the connection on a frame announced past the most a frame may hold, at once, without waiting for its bytes', async () => {
    const { session, host, closed } = session_();
    const mux = new Mux(session, Buffer.alloc(0));
    const answer = mux.run('cat /dev/zero');
    host.write('1 o 999999999999\n');
    host.write(Buffer.alloc(1 << 20));
    await expect(answer).rejects.toThrow('the command runner announced a frame of 999999999999 bytes, over the 67108864 a frame may hold');
    expect(closed()).toBe(true);
  });

  it('closes the connection on a header line without its end past 64 bytes', async () => {
    const { session, host } = session_();
    const mux = new Mux(session, Buffer.alloc(0));
    const answer = mux.run('true');
    for (let i = 0; i < 100; i++) host.write('1111111111');
    await expect(answer).rejects.toThrow('a line of over 64 bytes where a frame');
  });

  it('stops a command at its output cap inside one long frame, and reads on past the rest of that frame', async () => {
    const { session, host, sent } = session_();
    const mux = new Mux(session, Buffer.alloc(0));
    const big = mux.run('yes', { maxBytes: 100_000 });
    host.write('1 o 60000000\n');
    for (let i = 0; i < 4; i++) host.write(Buffer.alloc(40_000, 0x79));
    await expect(big).rejects.toMatchObject({ name: 'OutputTooLarge' });
    expect(sent).toContain('K 1');
    // The rest of the frame is read past, not kept; the next command is answered.
    const next = mux.run('echo ok');
    for (let left = 60_000_000 - 160_000; left > 0; left -= 1 << 20) host.write(Buffer.alloc(Math.min(left, 1 << 20)));
    host.write('2 o 3\nok\n2 x 1\n0');
    expect(await next).toEqual({ stdout: 'ok\n', stderr: '', code: 0 });
  });
});

describe("the first session's hello", () => {
  it('has a deadline: a login shell that never starts the runner fails the command with why, and closes its session', async () => {
    const { session: silent, closed } = session_();
    const commands = hostCommands({ open: async () => silent, stream: () => { throw new Error('no streams here'); } }, { helloMs: 50 });
    await expect(commands.run('true')).rejects.toThrow('its login shell did not start the command runner within 0 s');
    expect(closed()).toBe(true);
    commands.close();
  });
});


describe("the change feed, read from a host that sends a line without end", () => {
  it('stops that feed with a problem past 64 KiB, rather than gathering the bytes for ever', () => {
    const stdout = new PassThrough();
    let killed = false;
    const child = { stdout, stderr: new PassThrough(), kill: () => void (killed = true), on: () => child };
    const host = { status: { state: 'connected' }, stream: () => child } as unknown as RemoteHost;
    const feed = new HostFeed(host);
    feed.include('/runs');
    for (let i = 0; i < 80; i++) stdout.write(Buffer.alloc(1024, 0x61));
    expect(killed).toBe(true);
    expect(feed.status).toMatchObject({ state: 'down', problem: "the change feed sent over 65536 bytes without a line's end; it starts again" });
    feed.close();
  });
});
