// One python3 process per connection that runs every command the app sends the host, short ones and
// long-lived streams alike, each in a process group of its own, their output framed on its stdout. The
// user's login shell (its .bashrc, `conda init`) starts once, for it, instead of once per stream.
import { EventEmitter } from 'node:events';
import { constants } from 'node:os';
import { PassThrough } from 'node:stream';
import { Semaphore } from '../concurrency';
import type { Spawned } from '../programs';
import { shellQuote } from '../../shared/quote';
import { EXEC_MAX_BYTES, HelperGone, outputTooLarge, type Answer, type Session } from './helper';

/**
 * The host's side. Requests on stdin, one a line: `R ID JSON` runs a command with no input, `S ID JSON` a
 * stream whose input stays open until it is stopped (how `untilClosed` knows), `K ID` stops one (its whole
 * process group). On stdout, after `\n<token> mux\n`, frames `ID KIND LENGTH\n` and LENGTH bytes: `o` and
 * `e` its output, `x` its exit code (negative: the signal). Its input ending (the channel gone) ends all.
 * Python 3.5 and later.
 */
export const MUX_SCRIPT = String.raw`
import json, os, selectors, signal, subprocess, sys
# Writes wait for room: the channel's stdout could come non-blocking.
os.set_blocking(1, True)
def write(data):
    # A write a signal (SIGCHLD) interrupts can be short: the rest is written after it.
    view = memoryview(data)
    while view:
        view = view[os.write(1, view):]
def send(i, kind, data=b""):
    write(("%s %s %d\n" % (i, kind, len(data))).encode() + data)
wake_r, wake_w = os.pipe()
os.set_blocking(wake_r, False)
os.set_blocking(wake_w, False)
signal.set_wakeup_fd(wake_w)
signal.signal(signal.SIGCHLD, lambda *_: None)
sel = selectors.DefaultSelector()
sel.register(0, selectors.EVENT_READ, None)
sel.register(wake_r, selectors.EVENT_READ, None)
children = {}
def stop(i):
    child = children.get(i)
    if child is None:
        return
    if child[2] is not None:
        child[2].close()
        child[2] = None
    try:
        os.killpg(child[0].pid, signal.SIGKILL)
    except OSError:
        pass
def drop(fd):
    sel.unregister(fd)
    os.close(fd)
def reap():
    for i, child in list(children.items()):
        code = child[0].poll()
        if code is None:
            continue
        for fd, kind in list(child[1].items()):
            try:
                while True:
                    data = os.read(fd, 65536)
                    if not data:
                        break
                    send(i, kind, data)
            except BlockingIOError:
                pass
            drop(fd)
        if child[2] is not None:
            child[2].close()
        send(i, "x", str(code).encode())
        del children[i]
def start(op, i, command):
    p = subprocess.Popen(["/bin/sh", "-c", command], stdin=subprocess.PIPE if op == "S" else subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    fds = {}
    for stream, kind in ((p.stdout, "o"), (p.stderr, "e")):
        fd = os.dup(stream.fileno())
        stream.close()
        os.set_blocking(fd, False)
        fds[fd] = kind
        sel.register(fd, selectors.EVENT_READ, i)
    children[i] = [p, fds, p.stdin]
write(b"\n" + sys.argv[1].encode() + b" mux\n")
pending = b""
while True:
    for key, _ in sel.select():
        fd = key.fd
        if fd == wake_r:
            try:
                os.read(wake_r, 4096)
            except BlockingIOError:
                pass
        elif fd == 0:
            data = os.read(0, 65536)
            if not data:
                for i in list(children):
                    stop(i)
                sys.exit(0)
            pending += data
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                parts = line.decode().split(" ", 2)
                if parts[0] == "K":
                    stop(parts[1])
                else:
                    try:
                        start(parts[0], parts[1], json.loads(parts[2]))
                    except OSError as error:
                        send(parts[1], "e", str(error).encode())
                        send(parts[1], "x", b"127")
        else:
            i = key.data
            child = children.get(i)
            try:
                data = os.read(fd, 65536)
            except BlockingIOError:
                continue
            if data:
                send(i, child[1][fd], data)
            else:
                drop(fd)
                del child[1][fd]
    reap()
`;

/** The login shell's one command: the mux where python3 runs, else a plain `sh` helper, saying which. */
export const BOOTSTRAP = `if command -v python3 >/dev/null 2>&1; then exec python3 -u -c ${shellQuote([MUX_SCRIPT])} "$1"; fi
printf '\\n%s sh\\n' "$1"
exec sh`;

interface Job {
  onData(kind: 'o' | 'e', data: Buffer): void;
  onExit(code: number | null, signal: string | null): void;
}

/**
 * Short commands running at once on a host, at most: a burst waits its turn rather than forking the host a
 * process each (the sh helpers ran four). Streams are few and long-lived, and not counted.
 */
const MAX_RUNNING = 16;

/** A frame's header: the command's id, what follows (o, e, x) and its length. */
const FRAME = /^(\d+) ([oex]) (\d+)$/;

const SIGNALS = new Map(Object.entries(constants.signals).map(([name, number]) => [number, name]));

/**
 * The client side of MUX_SCRIPT on a session whose hello has been read (`rest`: the bytes after it).
 * Each command its own process on the host, run side by side: one that hangs holds nothing else up.
 */
export class Mux {
  private jobs = new Map<string, Job>();
  private next = 0;
  private buffer: Buffer = Buffer.alloc(0);
  private ended = false;
  /** Why it ended, when it was not the connection: output that is not a frame. */
  private why: string | null = null;
  private readonly endListeners: (() => void)[] = [];
  private readonly running = new Semaphore(MAX_RUNNING);

  constructor(
    private readonly session: Session,
    rest: Buffer,
  ) {
    session.stdout.on('data', (chunk: Buffer) => this.take(chunk));
    // Read, or a talkative profile would fill the channel's window: the commands' own stderr is framed.
    session.stderr.resume();
    session.onEnd(() => this.gone());
    if (rest.length) this.take(rest);
  }

  onEnd(listener: () => void): void {
    this.endListeners.push(listener);
  }

  private send(line: string): void {
    this.session.stdin.write(`${line}\n`);
  }

  private start(op: 'R' | 'S', command: string, job: Job): string {
    const id = String(++this.next);
    this.jobs.set(id, job);
    this.send(`${op} ${id} ${JSON.stringify(command)}`);
    return id;
  }

  private take(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      const newline = this.buffer.indexOf(0x0a);
      if (newline < 0) return;
      const header = FRAME.exec(this.buffer.toString('latin1', 0, newline));
      if (!header) {
        this.why = `the command runner printed what is not a frame: ${JSON.stringify(this.buffer.toString('latin1', 0, Math.min(newline, 80)))}`;
        return this.close();
      }
      const [, id, kind, length] = header as unknown as [string, string, string, string];
      const end = newline + 1 + Number(length);
      if (this.buffer.length < end) return;
      const data = this.buffer.subarray(newline + 1, end);
      this.buffer = this.buffer.subarray(end);
      const job = this.jobs.get(id);
      if (!job) continue;
      if (kind === 'x') {
        this.jobs.delete(id);
        const code = Number(data.toString('latin1'));
        job.onExit(code >= 0 ? code : null, code >= 0 ? null : (SIGNALS.get(-code) ?? `signal ${-code}`));
      } else job.onData(kind as 'o' | 'e', data);
    }
  }

  private gone(): void {
    if (this.ended) return;
    this.ended = true;
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    for (const job of jobs) job.onExit(null, 'SIGHUP');
    this.endListeners.forEach((listener) => listener());
  }

  private endedWhy(): string {
    return this.why ?? 'the connection closed under the command';
  }

  /** A short command, with no input; rejects with OutputTooLarge (and stops it) past `maxBytes`. */
  run(command: string, { maxBytes = EXEC_MAX_BYTES }: { maxBytes?: number } = {}): Promise<Answer> {
    return this.running.run(() => this.runNow(command, maxBytes));
  }

  private runNow(command: string, maxBytes: number): Promise<Answer> {
    if (this.ended) return Promise.reject(new HelperGone(this.endedWhy()));
    return new Promise((resolve, reject) => {
      const output = { o: [] as Buffer[], e: [] as Buffer[] };
      let bytes = 0;
      let stopped = false;
      const id = this.start('R', command, {
        onData: (kind, data) => {
          if (stopped) return;
          bytes += data.length;
          if (bytes > maxBytes) {
            stopped = true;
            this.send(`K ${id}`);
            return reject(outputTooLarge(maxBytes));
          }
          output[kind].push(data);
        },
        onExit: (code, signal) => {
          if (stopped) return;
          if (signal === 'SIGHUP' && code === null && this.ended) return reject(new HelperGone(this.endedWhy()));
          resolve({ stdout: Buffer.concat(output.o).toString('utf8'), stderr: Buffer.concat(output.e).toString('utf8'), code });
        },
      });
    });
  }

  /** A long-lived command line, streaming; kill() stops its process group. */
  stream(commandLine: string): Spawned {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const events = new EventEmitter();
    if (this.ended) {
      queueMicrotask(() => events.emit('error', new HelperGone('the connection is closed')));
      return spawned(stdout, stderr, events, () => undefined);
    }
    const id = this.start('S', commandLine, {
      onData: (kind, data) => (kind === 'o' ? stdout : stderr).write(data),
      onExit: (code, signal) => {
        stdout.end();
        stderr.end();
        events.emit('exit', code, signal);
      },
    });
    return spawned(stdout, stderr, events, () => {
      if (this.jobs.has(id) && !this.ended) this.send(`K ${id}`);
    });
  }

  close(): void {
    this.session.close();
  }
}

function spawned(stdout: PassThrough, stderr: PassThrough, events: EventEmitter, kill: () => void): Spawned {
  return { stdout, stderr, kill, on: (event: string, listener: (...args: unknown[]) => void) => events.on(event, listener) } as Spawned;
}
