// A text from a file shown within a size: a value, a key or a whole message may be hundreds of megabytes
// (formats.md, hostile sizes), and every view, the index cache and the wire carry what a problem says.
import { whole } from './counts';

/** The most characters of a problem's message or a reason a cell is off its board. */
export const MAX_TEXT_CHARS = 2000;
/**
 * The most characters of a name: a cell's, a label, a unit, a value or a status a message names or a count is
 * keyed by. As many as a file's name may have, so a name a folder gives is never cut.
 */
export const MAX_NAME_CHARS = 255;

/** A high surrogate: a cut just after one would leave half a character. */
const high = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * `text` as it is where it has at most `max` characters, else its start and its end with how many characters
 * between them are left out: "zzzz… 99,960 characters not shown …zzzz", `max` characters in all.
 */
export function elided(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = (n: number) => `… ${whole(n)} characters not shown …`;
  const kept = Math.max(0, max - note(text.length).length);
  let head = Math.ceil(kept / 2);
  let tail = text.length - (kept - head);
  if (head > 0 && high(text.charCodeAt(head - 1))) head--;
  if (tail < text.length && high(text.charCodeAt(tail - 1))) tail++;
  return `${text.slice(0, head)}${note(tail - head)}${text.slice(tail)}`;
}
