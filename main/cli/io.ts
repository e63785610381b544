export interface Io {
  out(line: string): void;
  err(line: string): void;
}

export const processIo: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** A mistake in how the command was called: printed with the usage hint, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
