// Every command the app runs on a host, short or streaming, and the one way they get there: through the
// connection's mux (mux.ts) where the host has python3, else through `sh` helpers for short commands and a
// session of its own for each stream. Either way the first login shell is started once, when the first
// command needs it.
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { Spawned } from '../programs';
import { shellQuote } from '../../shared/quote';
import { HelperGone, ShellHelpers, type Answer, type Session } from './helper';
import { Mux } from './mux';
import { BOOTSTRAP } from './mux-script';

export interface HostCommands {
  /** A short command, as `sh -c` runs it, with no input. */
  run(command: string, options?: { maxBytes?: number }): Promise<Answer>;
  /** A long-lived command line, as `sh -c` runs it, streaming; its input stays open until kill(). */
  stream(commandLine: string): Spawned;
  /** Told how the connection's commands run, once it is known (and again if the mux is started again). */
  onChosen(listener: (way: 'python3' | 'sh') => void): void;
  close(): void;
}

/** How a connection opens a session running one command line, and streams one as a process of its own. */
export interface SessionOpener {
  open(commandLine: string): Promise<Session>;
  stream(commandLine: string): Spawned;
}

type Way = { mux: Mux } | { helpers: ShellHelpers };

/**
 * Reads `stream` past whatever a login shell's profile printed until `marker` appears, then stops reading
 * and hands over the match and the bytes after it.
 */
function afterMarker(stream: NodeJS.ReadableStream, marker: RegExp, found: (match: RegExpExecArray, rest: Buffer) => void): void {
  let seen = '';
  const listener = (chunk: Buffer) => {
    seen = (seen + chunk.toString('latin1')).slice(-(1 << 16));
    const match = marker.exec(seen);
    if (!match) return;
    stream.removeListener('data', listener);
    found(match, Buffer.from(seen.slice(match.index + match[0].length), 'latin1'));
  };
  stream.on('data', listener);
}

/**
 * The login shell's first session: the mux's hello, or the plain helper's, read past whatever its profile
 * printed. Null when the session ended before either (a python3 that cannot run the mux).
 */
async function greet(open: SessionOpener['open'], helloMs: number): Promise<{ session: Session; kind: 'mux' | 'sh'; rest: Buffer } | null> {
  const token = `cw-${randomBytes(12).toString('hex')}`;
  const session = await open(shellQuote(['exec', 'sh', '-c', BOOTSTRAP, 'sh', token]));
  return new Promise((resolve, reject) => {
    // A login shell that never gets to the script (a profile waiting for input) must not hold the host for ever.
    const deadline = setTimeout(() => {
      reject(new HelperGone(`its login shell did not start the command runner within ${Math.round(helloMs / 1000)} s (does its profile wait for input?)`));
      session.close();
    }, helloMs);
    afterMarker(session.stdout, new RegExp(`\n${token} (mux|sh)\n`), (found, rest) => {
      clearTimeout(deadline);
      resolve({ session, kind: found[1] as 'mux' | 'sh', rest });
    });
    session.onEnd(() => {
      clearTimeout(deadline);
      resolve(null);
    });
  });
}

/** How long the first session has to say hello. */
export const HELLO_MS = 20_000;

/** A Spawned whose streams and events are wired once the real one exists; killed before that, it is killed then. */
function deferred(real: Promise<Spawned>): Spawned {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const events = new EventEmitter();
  let killed = false;
  let child: Spawned | undefined;
  real.then(
    (spawned) => {
      child = spawned;
      spawned.stdout.pipe(stdout);
      spawned.stderr?.pipe(stderr);
      spawned.on('exit', (code, signal) => events.emit('exit', code, signal));
      spawned.on('error', (error) => events.emit('error', error));
      if (killed) spawned.kill();
    },
    (error: Error) => events.emit('error', error),
  );
  return {
    stdout,
    stderr,
    kill: () => {
      killed = true;
      child?.kill();
    },
    on: (event: string, listener: (...args: unknown[]) => void) => events.on(event, listener),
  } as Spawned;
}

/**
 * A stream in a session of its own, its login shell's greeting dropped: what the profile printed comes
 * before a token line the script prints first, and nothing before that line is passed on.
 */
function ownSession(opener: SessionOpener, script: string): Spawned {
  const token = `cw-${randomBytes(12).toString('hex')}`;
  const child = opener.stream(shellQuote(['sh', '-c', `printf '\\n%s\\n' ${token}\n${script}`]));
  const stdout = new PassThrough();
  let through = false;
  afterMarker(child.stdout, new RegExp(`\n${token}\n`), (_, rest) => {
    through = true;
    stdout.write(rest);
    child.stdout.pipe(stdout);
  });
  child.stdout.once('end', () => through || stdout.end());
  return { ...child, stdout, kill: () => child.kill(), on: child.on.bind(child) } as Spawned;
}

/** The commands of one connection, over its sessions: chosen once, on the first command, and again if the mux ends. */
export function hostCommands(opener: SessionOpener, { helloMs = HELLO_MS }: { helloMs?: number } = {}): HostCommands {
  const helpers = new ShellHelpers(opener.open);
  let way: Promise<Way> | undefined;
  let closed = false;
  const listeners: ((way: 'python3' | 'sh') => void)[] = [];
  const choose = (): Promise<Way> => {
    if (closed) return Promise.reject(new HelperGone('the connection is closed'));
    way ??= greet(opener.open, helloMs).then((greeted): Way => {
      if (greeted?.kind === 'sh') helpers.adopt(greeted.session);
      if (greeted?.kind !== 'mux') {
        listeners.forEach((listener) => listener('sh'));
        return { helpers };
      }
      const mux = new Mux(greeted.session, greeted.rest);
      // Stopped on the host while the connection lives: the next command starts another.
      mux.onEnd(() => (way = undefined));
      listeners.forEach((listener) => listener('python3'));
      return { mux };
    });
    way.catch(() => (way = undefined));
    return way;
  };
  return {
    async run(command, options) {
      const chosen = await choose();
      return 'mux' in chosen ? chosen.mux.run(command, options) : chosen.helpers.run(command, options);
    },
    stream(commandLine) {
      return deferred(choose().then((chosen) => ('mux' in chosen ? chosen.mux.stream(commandLine) : ownSession(opener, commandLine))));
    },
    onChosen(listener) {
      listeners.push(listener);
    },
    close() {
      closed = true;
      helpers.close();
      void way?.then((chosen) => 'mux' in chosen && chosen.mux.close(), () => undefined);
    },
  };
}
