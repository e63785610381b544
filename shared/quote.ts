/** One argument as a POSIX shell reads it back: as it is where it is safe, else in single quotes. */
export const shellArg = (a: string) => (/^[\w./=:@%+-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

/** A command as one line a POSIX shell would run the same way. */
export function shellQuote(args: string[]): string {
  return args.map(shellArg).join(' ');
}
