/** Deeper than this, JSON is not read: no runner writes it, and 10 MB of nesting took 1.2 GB to hold. */
export const MAX_JSON_DEPTH = 256;

export class TooDeepError extends Error {
  override name = 'TooDeepError';
  constructor() {
    super(`nested deeper than ${MAX_JSON_DEPTH} levels; not read`);
  }
}

/** Whether `text` opens more than `limit` arrays or objects inside each other (strings skipped). */
function deeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Whether `text` holds more than `limit` of `[` and `{` in all, strings or not: fewer cannot nest deeper than it. */
function opensMoreThan(text: string, limit: number): boolean {
  let count = 0;
  for (const opener of ['{', '[']) {
    for (let at = text.indexOf(opener); at >= 0; at = text.indexOf(opener, at + 1)) if (++count > limit) return true;
  }
  return false;
}

/** JSON.parse of a run's file or line, refusing nesting past MAX_JSON_DEPTH (TooDeepError) before it is built. */
export function parseJson(text: string): unknown {
  // Too short, or too few brackets, to nest that deep: nothing to walk (the walk was 5 % of a cold status).
  if (text.length > 2 * MAX_JSON_DEPTH && opensMoreThan(text, MAX_JSON_DEPTH) && deeperThan(text, MAX_JSON_DEPTH)) throw new TooDeepError();
  return JSON.parse(text);
}

/**
 * JSON for a terminal: JSON.stringify escapes U+0000-U+001F in strings but leaves DEL and the C1 controls
 * (U+007F-U+009F) as they are, which a terminal reads as escape sequences; they are escaped here as JSON
 * escapes them (made visible the way the CLI's `printable` does, the text would no longer parse). `space`
 * indents as JSON.stringify's does.
 */
export const terminalJson = (value: unknown, space?: number): string =>
  JSON.stringify(value, null, space).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
