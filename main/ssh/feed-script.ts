// The command line of a host's change feed: one long-lived, read-only process on the host that prints a
// line per change below the watched roots. Everything it needs is in the command line: nothing is written
// on the host. Paths are sent once, then by number, so a log growing line by line costs a few bytes a line.
import { shellQuote } from '../../shared/quote';
import type { Change } from '../changes';
import { REMOTE_DEPTH } from '../scan';
import { untilClosed } from './host';

export type FeedMode = 'inotify' | 'python' | 'find';

/** Frames and videos are listed when a viewer asks: their changes would flood the feed. */
const MEDIA = ['*.png', '*.jpg', '*.jpeg', '*.mp4'];

/** Prints `=N PATH` the first time a path is told, and `K N` for each change (K: M, C, D or X). */
const TELL = 'function tell(kind, path) { if (!(path in id)) { id[path] = ++ids; print "=" ids " " path } print kind " " id[path]; fflush() }';

/**
 * Linux's inotify from python3 through ctypes, for the hosts without inotify-tools (nearly every GPU host
 * has python3): the same lines as the inotifywait feed. Folders are watched as they appear, down to the
 * depth a remote root is read, links not followed; a folder made with files already in it tells each.
 */
const PYTHON_FEED = String.raw`
import ctypes, os, re, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
MODIFY, MOVED_FROM, MOVED_TO, CREATE, DELETE, OVERFLOW, ISDIR = 0x2, 0x40, 0x80, 0x100, 0x200, 0x4000, 0x40000000
MASK = MODIFY | MOVED_FROM | MOVED_TO | CREATE | DELETE
fd = libc.inotify_init1(0)
if fd < 0:
    sys.exit("inotify_init1: " + os.strerror(ctypes.get_errno()))
depth_limit = int(sys.argv[1])
roots = sys.argv[2:]
media = re.compile(r"\.(png|jpe?g|mp4)$", re.I)
watches, depths, ids = {}, {}, {}
def tell(kind, path):
    if path not in ids:
        ids[path] = len(ids) + 1
        sys.stdout.write("=%d %s\n" % (ids[path], path))
    sys.stdout.write("%s %d\n" % (kind, ids[path]))
def watch(path, depth, new):
    w = libc.inotify_add_watch(fd, os.fsencode(path), MASK)
    if w < 0:
        return
    watches[w], depths[w] = path, depth
    try:
        entries = list(os.scandir(path))
    except OSError:
        return
    for e in entries:
        if new and not media.search(e.name):
            tell("C", e.path)
        if depth < depth_limit and e.is_dir(follow_symlinks=False):
            watch(e.path, depth + 1, new)
for root in roots:
    watch(root, 0, False)
sys.stdout.write("READY\n")
sys.stdout.flush()
while True:
    data = os.read(fd, 1 << 16)
    i = 0
    while i < len(data):
        w, mask, _, size = struct.unpack_from("iIII", data, i)
        name = os.fsdecode(data[i + 16:i + 16 + size].rstrip(b"\0"))
        i += 16 + size
        if mask & OVERFLOW:
            for root in roots:
                tell("X", root)
            continue
        base = watches.get(w)
        if base is None or not name or media.search(name):
            continue
        path = base + "/" + name
        if mask & (DELETE | MOVED_FROM):
            tell("D", path)
        elif mask & (CREATE | MOVED_TO):
            tell("C", path)
            if mask & ISDIR and depths[w] < depth_limit:
                watch(path, depths[w] + 1, True)
        else:
            tell("M", path)
    sys.stdout.flush()
`;

/**
 * The feed the host can run, chosen on the host: `MODE inotify`, `MODE python` or `MODE find` first, then
 * its lines. One command, so a host whose shell is slow to start (a heavy .bashrc) starts one shell, not two.
 */
export function feedCommand(roots: string[], intervalS = 1): string {
  return [
    `if command -v inotifywait >/dev/null 2>&1; then echo MODE inotify\n${modeCommand('inotify', roots, intervalS)}`,
    `elif python3 -c 'import ctypes; ctypes.CDLL(None).inotify_init1' >/dev/null 2>&1; then echo MODE python\n${modeCommand('python', roots, intervalS)}`,
    `else echo MODE find\n${modeCommand('find', roots, intervalS)}\nfi`,
  ].join('\n');
}

/**
 * inotify: `inotifywait -m -r` on the roots, read by awk, which prints READY once its watches are set and
 * each event as modified (M), created (C) or gone (D). python: the same from PYTHON_FEED. find: awk lists every file's size and mtime each
 * `intervalS` and tells only the differences: changed (X) or gone (D).
 */
function modeCommand(mode: FeedMode, roots: string[], intervalS: number): string {
  if (mode === 'python') return supervised(`python3 -u -c ${shellQuote([PYTHON_FEED])} ${REMOTE_DEPTH} ${shellQuote(roots)} 2>&1`);
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
    if (line === 'MODE inotify' || line === 'MODE python' || line === 'MODE find') return { mode: line.slice(5) as FeedMode };
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
