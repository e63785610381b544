/** A command as one line a POSIX shell would run the same way. */
export function shellQuote(args: string[]): string {
  return args.map((a) => (/^[\w./=:@%+-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
