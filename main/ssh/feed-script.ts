// The command line of a host's change feed: one long-lived, read-only process on the host that prints a
// line per change below the watched roots. Everything it needs is in the command line: nothing is written
// on the host. Paths are sent once, then by number, so a log growing line by line costs a few bytes a line.
import { shellQuote } from '../../shared/quote';
import type { Change } from '../changes';
import { REMOTE_DEPTH } from '../scan';
import { untilClosed } from './host';

export type FeedMode = 'inotify' | 'find';

/** Frames and videos are listed when a viewer asks: their changes would flood the feed. */
const MEDIA = ['*.png', '*.jpg', '*.jpeg', '*.mp4'];

/** Prints `=N PATH` the first time a path is told, and `K N` for each change (K: M, C, D or X). */
const TELL = 'function tell(kind, path) { if (!(path in id)) { id[path] = ++ids; print "=" ids " " path } print kind " " id[path]; fflush() }';

/**
 * The feed the host can run, chosen on the host: `MODE inotify` or `MODE find` first, then its lines. One
 * command, so a host whose shell is slow to start (a heavy .bashrc) starts one shell, not two.
 */
export function feedCommand(roots: string[], intervalS = 1): string {
  return `if command -v inotifywait >/dev/null 2>&1; then echo MODE inotify\n${modeCommand('inotify', roots, intervalS)}\nelse echo MODE find\n${modeCommand('find', roots, intervalS)}\nfi`;
}

/**
 * inotify: `inotifywait -m -r` on the roots, read by awk, which prints READY once its watches are set and
 * each event as modified (M), created (C) or gone (D). find: awk lists every file's size and mtime each
 * `intervalS` and tells only the differences: changed (X) or gone (D).
 */
function modeCommand(mode: FeedMode, roots: string[], intervalS: number): string {
  if (mode === 'inotify') {
    const watch = `inotifywait -m -r -e modify,create,delete,moved_to,moved_from --format '%e %w%f' --exclude ${shellQuote(['\\.(png|jpe?g|mp4)$'])} ${shellQuote(roots)} 2>&1`;
    const program = [
      TELL,
      '$0 == "Watches established." { print "READY"; fflush(); next }',
      '{',
      '  sp = index($0, " "); events = substr($0, 1, sp - 1); path = substr($0, sp + 1)',
      '  if (substr(path, 1, 1) != "/") next',
      '  kind = events ~ /DELETE|MOVED_FROM/ ? "D" : events ~ /CREATE|MOVED_TO/ ? "C" : "M"',
      '  tell(kind, path)',
      '}',
    ].join('\n');
    // mawk reads a pipe a block at a time unless told it is interactive; other awks read what is there.
    const awk = 'if awk -W version 2>/dev/null | grep -q mawk; then AWK="awk -W interactive"; else AWK=awk; fi';
    return supervised(`${watch} | $AWK ${shellQuote([program])}`, awk);
  }
  const skip = MEDIA.map((m) => `! -name ${shellQuote([m])}`).join(' ');
  // As deep as a remote root is read (cells, then their episodes' files), and no link followed below a root.
  const list = `find -H ${shellQuote(roots)} -maxdepth ${REMOTE_DEPTH} -type f ${skip} -printf '%s %T@ %p\\n' 2>/dev/null`;
  const program = [
    TELL,
    'BEGIN {',
    '  cmd = ENVIRON["FEED_LIST"]; first = 1',
    '  while (1) {',
    '    while ((cmd | getline line) > 0) {',
    '      a = index(line, " "); rest = substr(line, a + 1); b = index(rest, " ")',
    '      path = substr(rest, b + 1); val = substr(line, 1, a - 1) " " substr(rest, 1, b - 1)',
    '      now[path] = val',
    '      if (!first && prev[path] != val) tell("X", path)',
    '    }',
    '    close(cmd)',
    '    if (!first) for (p in prev) if (!(p in now)) tell("D", p)',
    '    split("", prev); for (p in now) prev[p] = now[p]; split("", now)',
    '    if (first) { print "READY"; fflush(); first = 0 }',
    `    system("sleep ${intervalS}")`,
    '  }',
    '}',
  ].join('\n');
  return supervised(`FEED_LIST=${shellQuote([list])} awk ${shellQuote([program])}`);
}

/** The feed, ended with its channel. */
function supervised(feed: string, before = ':'): string {
  return `${before}\n${untilClosed(feed)}`;
}

const KINDS: Record<string, Change['kind']> = { M: 'modified', C: 'created', D: 'gone', X: 'changed' };

/** Reads one run of a feed's lines: READY, path numbers, changes. */
export class FeedReader {
  private readonly paths = new Map<string, string>();

  /** 'ready', the feed's mode, a change, or null for a line that is neither (a path's number, a notice). */
  line(line: string): Change | 'ready' | { mode: FeedMode } | null {
    if (line === 'READY') return 'ready';
    if (line === 'MODE inotify' || line === 'MODE find') return { mode: line.slice(5) as FeedMode };
    const named = /^=(\d+) (\/.*)$/.exec(line);
    if (named) {
      this.paths.set(named[1] as string, named[2] as string);
      return null;
    }
    const told = /^([MCDX]) (\d+)$/.exec(line);
    const path = told && this.paths.get(told[2] as string);
    return path ? { path, kind: KINDS[told[1] as string] as Change['kind'] } : null;
  }
}
