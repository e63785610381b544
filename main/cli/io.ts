import { terminalJson } from '../../shared/json';
import { printableLines } from './printable';

export interface Io {
  out(line: string): void;
  err(line: string): void;
  /** Output made printable by the caller (JSON whose strings escape every control character), written as it is: a chunk may end mid-line. */
  write(bytes: Uint8Array): void;
}

/** The terminal: no control character other than newline and tab gets through, whatever a command printed. */
export const processIo: Io = {
  out: (line) => process.stdout.write(`${printableLines(line)}\n`),
  err: (line) => process.stderr.write(`${printableLines(line)}\n`),
  write: (bytes) => process.stdout.write(bytes),
};

/** A value as JSON and a newline: valid JSON that a terminal shows as it is (terminalJson), written as it is. */
export function outJson(io: Io, value: unknown, space?: number): void {
  io.write(Buffer.from(`${terminalJson(value, space)}\n`));
}

/** A mistake in how the command was called: printed with the usage hint, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * Until a command that runs on is asked to stop: `stop` aborted (before this was called, too: a caller may stop
 * it while it still starts), Ctrl+C or SIGTERM.
 */
export function untilStopped(stop?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stop?.removeEventListener('abort', done);
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    if (stop?.aborted) return done();
    stop?.addEventListener('abort', done, { once: true });
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}
