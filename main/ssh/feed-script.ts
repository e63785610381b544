// The command line of a host's change feed: one long-lived, read-only process on the host that prints a
// line per change below the watched roots. Everything it needs is in the command line: nothing is written
// on the host.
import { shellQuote } from '../../shared/quote';
import type { Change } from '../changes';

export type FeedMode = 'inotify' | 'find';

/** Asked once per connection: which feed the host can run. */
export const FEED_PROBE = 'command -v inotifywait >/dev/null 2>&1 && echo inotify || echo find';

/** Frames and videos are listed when a viewer asks: their changes would flood the feed. */
const MEDIA = ['*.png', '*.jpg', '*.jpeg', '*.mp4'];

/** Printed once the feed watches everything: changes after it are reported. */
const READY_LINES = new Set(['READY', 'Watches established.']);

export const isReady = (line: string) => READY_LINES.has(line);

/**
 * inotify: `inotifywait -m -r` on the roots, one line per event (`EVENTS PATH`), READY once its watches are
 * set. find: an awk loop that lists every file's size and mtime each `intervalS` and prints only the
 * differences (`C SIZE MTIME PATH`, `D - - PATH`).
 */
export function feedCommand(mode: FeedMode, roots: string[], intervalS = 1): string {
  if (mode === 'inotify') {
    const exclude = '\\.(png|jpe?g|mp4)$';
    // Its "Watches established." goes to stderr, merged into the one stream; exec'd, so stopping the channel stops it.
    return `exec inotifywait -m -r -e modify,close_write,create,delete,moved_to,moved_from,attrib --format '%e %w%f' --exclude ${shellQuote([exclude])} ${shellQuote(roots)} 2>&1`;
  }
  const skip = MEDIA.map((m) => `! -name ${shellQuote([m])}`).join(' ');
  const list = `find -L ${shellQuote(roots)} -type f ${skip} -printf '%s %T@ %p\\n' 2>/dev/null`;
  const program = [
    'BEGIN {',
    '  cmd = ENVIRON["FEED_LIST"]; first = 1',
    '  while (1) {',
    '    while ((cmd | getline line) > 0) {',
    '      a = index(line, " "); rest = substr(line, a + 1); b = index(rest, " ")',
    '      path = substr(rest, b + 1); val = substr(line, 1, a - 1) " " substr(rest, 1, b - 1)',
    '      now[path] = val',
    '      if (!first && prev[path] != val) print "C " val " " path',
    '    }',
    '    close(cmd)',
    '    if (!first) for (p in prev) if (!(p in now)) print "D - - " p',
    '    split("", prev); for (p in now) prev[p] = now[p]; split("", now)',
    '    if (first) { print "READY"; first = 0 }',
    '    fflush()',
    `    system("sleep ${intervalS}")`,
    '  }',
    '}',
  ].join('\n');
  return `FEED_LIST=${shellQuote([list])} exec awk ${shellQuote([program])}`;
}

/** A change as a feed tells it: inotify says modified, created or gone; find says changed or gone. */
export interface FeedChange extends Change {
  /** Size and mtime where the feed knows them (find); null from inotify, whose reader looks itself. */
  size: number | null;
  mtime: number | null;
}

/** One line of a feed; null for lines that are no change (inotify's notices). */
export function parseFeedLine(mode: FeedMode, line: string): FeedChange | null {
  if (mode === 'find') {
    const match = /^([CD]) (\S+) (\S+) (\/.*)$/.exec(line);
    if (!match) return null;
    const [, kind, size, mtime, path] = match as unknown as [string, string, string, string, string];
    return kind === 'D' ? { path, kind: 'gone', size: null, mtime: null } : { path, kind: 'changed', size: Number(size), mtime: Number(mtime) };
  }
  const match = /^([A-Z_,]+) (\/.*)$/.exec(line);
  if (!match) return null;
  const events = new Set((match[1] as string).split(','));
  const kind = events.has('DELETE') || events.has('MOVED_FROM') ? 'gone' : events.has('CREATE') || events.has('MOVED_TO') ? 'created' : 'modified';
  return { path: match[2] as string, kind, size: null, mtime: null };
}
