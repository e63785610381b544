// One python3 process per connection that runs every command the app sends the host, short ones and
// long-lived streams alike, each in a process group of its own, their output framed on its stdout. The
// user's login shell (its .bashrc, `conda init`) starts once, for it, instead of once per stream.
import { EventEmitter } from 'node:events';
import { constants } from 'node:os';
import { PassThrough } from 'node:stream';
import { Semaphore } from '../concurrency';
import type { Spawned } from '../programs';
import { EXEC_MAX_BYTES, HelperGone, outputTooLarge, type Answer, type Session } from './helper';

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
/** The longest header a frame may have (a real one is under 30 bytes): a longer one is not a frame. */
const MAX_HEADER = 64;
/** The most one frame may hold: what a command may print in all (the script sends at most 64 KiB a frame). */
const MAX_FRAME = EXEC_MAX_BYTES;
/** An exit frame holds a code: a few digits. */
const MAX_EXIT = 16;

/** The frame being read: its command's job (absent: one already gone), its kind and the bytes still to come. */
interface Frame {
  id: string;
  kind: 'o' | 'e' | 'x';
  left: number;
  exit: Buffer[];
}

const SIGNALS = new Map(Object.entries(constants.signals).map(([name, number]) => [number, name]));

/**
 * The client side of MUX_SCRIPT (mux-script.ts) on a session whose hello has been read (`rest`: the bytes after it).
 * Each command its own process on the host, run side by side: one that hangs holds nothing else up.
 */
export class Mux {
  private jobs = new Map<string, Job>();
  private next = 0;
  /** The header read so far, before its newline. */
  private header: Buffer[] = [];
  private headerBytes = 0;
  private frame: Frame | null = null;
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

  /** Reads frames as their bytes come: a frame's data goes to its command as it arrives, never gathered whole. */
  private take(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length && this.why === null) {
      if (this.frame) {
        const data = chunk.subarray(at, at + Math.min(this.frame.left, chunk.length - at));
        at += data.length;
        this.frame.left -= data.length;
        this.data(this.frame, data);
        if (this.frame.left === 0) this.finish(this.frame);
        continue;
      }
      const newline = chunk.indexOf(0x0a, at);
      const end = newline < 0 ? chunk.length : newline;
      this.header.push(chunk.subarray(at, end));
      this.headerBytes += end - at;
      if (this.headerBytes > MAX_HEADER) return this.refuse(`the command runner printed a line of over ${MAX_HEADER} bytes where a frame's header belongs`);
      if (newline < 0) return;
      at = newline + 1;
      const line = Buffer.concat(this.header).toString('latin1');
      this.header = [];
      this.headerBytes = 0;
      const header = FRAME.exec(line);
      if (!header) return this.refuse(`the command runner printed what is not a frame: ${JSON.stringify(line.slice(0, 80))}`);
      const [, id, kind, length] = header as unknown as [string, string, Frame['kind'], string];
      if (Number(length) > (kind === 'x' ? MAX_EXIT : MAX_FRAME)) return this.refuse(`the command runner announced a frame of ${length} bytes, over the ${kind === 'x' ? MAX_EXIT : MAX_FRAME} a frame may hold`);
      this.frame = { id, kind, left: Number(length), exit: [] };
      if (this.frame.left === 0) this.finish(this.frame);
    }
  }

  private data(frame: Frame, data: Buffer): void {
    if (frame.kind === 'x') frame.exit.push(data);
    else if (data.length) this.jobs.get(frame.id)?.onData(frame.kind, data);
  }

  private finish(frame: Frame): void {
    this.frame = null;
    const job = this.jobs.get(frame.id);
    if (frame.kind !== 'x' || !job) return;
    this.jobs.delete(frame.id);
    const code = Number(Buffer.concat(frame.exit).toString('latin1'));
    job.onExit(code >= 0 ? code : null, code >= 0 ? null : (SIGNALS.get(-code) ?? `signal ${-code}`));
  }

  /** Output that breaks the framing: the runner is not to be trusted further, and its connection is closed. */
  private refuse(why: string): void {
    this.why = why;
    this.close();
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
