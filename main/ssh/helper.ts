import { randomBytes } from 'node:crypto';
import type { ClientChannel } from 'ssh2';
import { shellQuote } from '../../shared/quote';
import { onlyFirst } from '../../shared/once';
import { OutputTooLarge } from '../../shared/errors';

export interface Answer {
  stdout: string;
  stderr: string;
  code: number | null;
}

/** A remote command printed more than it may: it was stopped, and what it printed was let go. */
export function outputTooLarge(maxBytes: number): OutputTooLarge {
  const limit = maxBytes >= 1 << 20 ? `${Math.round(maxBytes / (1 << 20))} MB` : `${Math.round(maxBytes / 1024)} KB`;
  return new OutputTooLarge(`printed more than ${limit}; stopped`);
}

/** What one remote command may print, stdout and stderr together, unless it says otherwise. */
export const EXEC_MAX_BYTES = 64 << 20;

/** A session running one command on the host (an ssh2 channel, or a process of the system's ssh). */
export interface Session {
  stdin: NodeJS.WritableStream;
  stdout: NodeJS.ReadableStream;
  stderr: NodeJS.ReadableStream;
  close(): void;
  /** Once, when the session ended or failed: a reason when it failed. */
  onEnd(listener: (error?: Error) => void): void;
}

/** The helper's channel closed under a command (the connection went): callers retry once it is back. */
export class HelperGone extends Error {
  override name = 'HelperGone';
}

/** How many helpers one connection may run at once: a command that hangs (nvidia-smi on a sick GPU) holds only its own. */
const MAX_HELPERS = 4;
/** How long a command waits for a busy helper before another is started for it. */
const PATIENCE_MS = 500;

/**
 * Bytes read until a line `\n<token> <code>\n` (stdout) or `\n<token>\n` (stderr) ends them. Only the
 * tail of what came before is searched again with each chunk, so a large answer is scanned once.
 */
class UntilMarker {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private tail = '';
  ended: { body: Buffer; code: number | null } | undefined;

  constructor(
    private readonly marker: RegExp,
    private readonly keep: number,
  ) {}

  /** Takes a chunk; the count of bytes it added to the body (for the limit). */
  push(chunk: Buffer): number {
    if (this.ended) return 0;
    const window = this.tail + chunk.toString('latin1');
    const found = this.marker.exec(window);
    const before = this.bytes - this.tail.length;
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    if (found) {
      const end = before + found.index;
      this.ended = { body: Buffer.concat(this.chunks).subarray(0, end), code: found[1] === undefined ? null : Number(found[1]) };
      this.chunks = [];
      return Math.max(0, end - before - this.tail.length);
    }
    this.tail = window.slice(-this.keep);
    return chunk.length;
  }
}

interface Request {
  resolve(answer: Answer): void;
  reject(error: Error): void;
  stdout: UntilMarker;
  stderr: UntilMarker;
  bytes: number;
  maxBytes: number;
}

/**
 * One `sh` on the host, started once through the user's login shell (so its .bashrc and environment are
 * paid for once), running one command at a time from its stdin: each in a subshell with no input, its
 * exit code and the end of its output said by a line with a token of its own.
 */
class Helper {
  private request: Request | undefined;
  alive = true;

  constructor(private readonly session: Session) {
    session.stdout.on('data', (chunk: Buffer) => this.take(chunk, 'stdout'));
    session.stderr.on('data', (chunk: Buffer) => this.take(chunk, 'stderr'));
    session.onEnd((error) => this.gone(new HelperGone(error?.message ?? 'the connection closed under the command')));
  }

  run(command: string, maxBytes: number): Promise<Answer> {
    const token = `cw-${randomBytes(12).toString('hex')}`;
    return new Promise((resolve, reject) => {
      this.request = { resolve, reject, bytes: 0, maxBytes, stdout: new UntilMarker(new RegExp(`\n${token} (\\d+)\n`), token.length + 8), stderr: new UntilMarker(new RegExp(`\n${token}\n`), token.length + 2) };
      this.session.stdin.write(`( eval ${shellQuote([command])} ) </dev/null; cw=$?; printf '\\n%s %s\\n' ${token} $cw; printf '\\n%s\\n' ${token} >&2\n`);
    });
  }

  private take(chunk: Buffer, stream: 'stdout' | 'stderr'): void {
    const request = this.request;
    if (!request) return;
    request.bytes += request[stream].push(chunk);
    if (request.bytes > request.maxBytes) {
      // The command is still printing: only closing its helper stops it reaching us.
      this.request = undefined;
      request.reject(outputTooLarge(request.maxBytes));
      return this.close();
    }
    const out = request.stdout.ended;
    const err = request.stderr.ended;
    if (!out || !err) return;
    this.request = undefined;
    request.resolve({ stdout: out.body.toString('utf8'), stderr: err.body.toString('utf8'), code: out.code });
  }

  private gone(error: Error): void {
    this.alive = false;
    const request = this.request;
    this.request = undefined;
    request?.reject(error);
  }

  close(): void {
    this.alive = false;
    this.session.close();
  }
}

/**
 * Short commands on one connection, through up to MAX_HELPERS long-lived helpers, started as commands
 * need them and kept for the connection's life.
 */
export class ShellHelpers {
  private idle: Helper[] = [];
  private count = 0;
  private waiting: (() => void)[] = [];
  private closed = false;

  constructor(private readonly open: (command: string) => Promise<Session>) {}

  async run(command: string, { maxBytes = EXEC_MAX_BYTES }: { maxBytes?: number } = {}): Promise<Answer> {
    const helper = await this.take();
    try {
      return await helper.run(command, maxBytes);
    } finally {
      this.give(helper);
    }
  }

  private async take(): Promise<Helper> {
    for (;;) {
      if (this.closed) throw new HelperGone('the connection is closed');
      const idle = this.idle.pop();
      if (idle?.alive) return idle;
      if (idle) {
        this.count--;
        continue;
      }
      if (this.count === 0) return this.start();
      // Another helper costs another login shell: started only for a command kept waiting.
      const freed = await new Promise<boolean>((resolve) => {
        const wake = () => (clearTimeout(timer), resolve(true));
        const giveUp = () => {
          this.waiting = this.waiting.filter((w) => w !== wake);
          resolve(false);
        };
        const timer = this.count < MAX_HELPERS ? setTimeout(giveUp, PATIENCE_MS) : undefined;
        this.waiting.push(wake);
      });
      if (!freed && !this.closed && this.idle.length === 0 && this.count < MAX_HELPERS) return this.start();
    }
  }

  private async start(): Promise<Helper> {
    this.count++;
    try {
      // `exec sh` in the login shell: its profile runs once, then sh reads commands; whatever the profile
      // printed goes with the first, empty, command's answer.
      const helper = new Helper(await this.open('exec sh'));
      await helper.run(':', 1 << 20);
      return helper;
    } catch (error) {
      this.count--;
      this.waiting.shift()?.();
      throw error;
    }
  }

  /** A session whose login shell has run its profile and become `sh`: the first helper. */
  adopt(session: Session): void {
    this.count++;
    this.give(new Helper(session));
  }

  private give(helper: Helper): void {
    if (helper.alive && !this.closed) this.idle.push(helper);
    else this.count--;
    this.waiting.shift()?.();
  }

  close(): void {
    this.closed = true;
    this.idle.splice(0).forEach((helper) => helper.close());
    this.waiting.splice(0).forEach((wake) => wake());
  }
}

/** An ssh2 exec channel as a session. */
export function channelSession(channel: ClientChannel): Session {
  return {
    stdin: channel,
    stdout: channel,
    stderr: channel.stderr,
    close() {
      try {
        channel.close();
      } catch {
        // The connection is gone, and the channel with it.
      }
    },
    onEnd(listener) {
      const end = onlyFirst(listener);
      channel.on('close', () => end());
      channel.on('error', (error: Error) => end(error));
    },
  };
}
