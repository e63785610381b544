// What a run directory says (names, messages, paths) reaches a terminal: its control characters must not.
import type { Problem } from '../../shared/model';

// eslint-disable-next-line no-control-regex -- matching control characters is what this is for
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex -- the same, newline and tab left out
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };
const escape = (c: string) => ESCAPES[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/** A value shown as one line: every control character (newlines and escape sequences included) made visible. */
export function printable(value: string): string {
  return value.replace(CONTROL, escape);
}

/** A whole line of output: its own newlines and tabs kept, every other control character made visible. */
export function printableLines(text: string): string {
  return text.replace(CONTROL_BUT_LINES, escape);
}

/** A problem as one line: `file:line: message`, made printable. */
export function problemLine(p: Pick<Problem, 'file' | 'line' | 'message'>, prefix = ''): string {
  return printable(`${prefix}${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}`);
}
