// A whole remote runs root in one round trip: every folder and file (frames and videos aside) with its
// size and mtime, and the contents of its small JSON files, from one command over the host's connection.
// Cells are then read from it as from a file system; what it does not hold is read over SFTP.
import { posix } from 'node:path';
import { asText, type CellFs, type Entry, type FileInfo } from '../../runners';
import { shellQuote } from '../../shared/quote';

/** JSON files up to this size come whole with the listing (summaries, run.json, results). */
const JSON_KB = 1024;
const MEDIA = ['*.png', '*.jpg', '*.jpeg', '*.mp4'];

/** Separates a JSON file's path from its text, and one file from the next. */
const SEP = '\u0001';

/**
 * `E TYPE SIZE MTIME PATH` and a NUL for every entry down to `depth`; then, from one awk, `F PATH`, SEP,
 * the text, SEP for each small JSON file (one process for all of them: a root of 10,000 cells is read in
 * about the time find takes). awk escapes `%`, SEP and NUL in paths and texts as `%25`, `%01`, `%00`: a
 * file holding any of them cannot end its own text early and pass what follows for another file's.
 * Links are not followed below the root (`-H`): a cell holding `linked -> /usr` lists one entry, not /usr.
 */
export function snapshotCommand(root: string, depth: number): string {
  const q = shellQuote([root]);
  const media = MEDIA.map((m) => `-name ${shellQuote([m])}`).join(' -o ');
  const list = `find -H ${q} -maxdepth ${depth} \\( ${media} \\) -prune -o -printf 'E %y %s %T@ %p\\0' 2>/dev/null`;
  const read = [
    'function esc(s) { gsub(/%/, "%25", s); gsub(/\\001/, "%01", s); gsub(/\\000/, "%00", s); return s }',
    'BEGIN { ORS = "" }',
    '{ f = $0; text = ""; n = 0; while ((getline line < f) > 0) text = text (n++ ? "\\n" : "") line; close(f); print "F " esc(f) "\\001" esc(text) "\\001" }',
  ].join('\n');
  const json = `find -H ${q} -maxdepth ${depth} -type f -name '*.json' -size -${JSON_KB}k 2>/dev/null | LC_ALL=C awk ${shellQuote([read])}`;
  return `${list}; ${json}; true`;
}

const ESCAPED: Record<string, string> = { '%25': '%', '%01': SEP, '%00': '\0' };
const unescape = (text: string) => text.replace(/%(25|01|00)/g, (code) => ESCAPED[code] as string);

const KIND: Record<string, Entry['kind']> = { f: 'file', d: 'dir' };

/** What the snapshot's command printed, by path: each entry's size, mtime and kind, each folder's entries, the small JSON files' texts. */
interface Listing {
  infos: Map<string, FileInfo>;
  children: Map<string, Entry[]>;
  texts: Map<string, string>;
}

function listingOf(output: string, root: string): Listing {
  const listing: Listing = { infos: new Map(), children: new Map(), texts: new Map() };
  const parts = output.split('\0');
  const texts = (parts.pop() ?? '').split(SEP);
  for (let i = 0; i + 1 < texts.length; i += 2) {
    const file = /^F (\/.*)$/s.exec(texts[i] as string);
    if (file) listing.texts.set(unescape(file[1] as string), unescape(texts[i + 1] as string));
  }
  for (const part of parts) {
    const entry = /^E (\S) (\d+) ([\d.]+) (\/.*)$/s.exec(part);
    if (entry) {
      const [, type, size, mtime, path] = entry as unknown as [string, string, string, string, string];
      const kind = KIND[type] ?? 'other';
      listing.infos.set(path, { size: Number(size), mtimeMs: Number(mtime) * 1000, kind });
      if (path !== root) {
        const dir = posix.dirname(path);
        const siblings = listing.children.get(dir) ?? [];
        siblings.push({ name: posix.basename(path), kind });
        listing.children.set(dir, siblings);
      }
    }
  }
  return listing;
}

/** The root as the snapshot saw it; below its depth, and for byte ranges, `fallback` (SFTP) answers. */
export class SnapshotFs implements CellFs {
  private readonly infos: Map<string, FileInfo>;
  private readonly children: Map<string, Entry[]>;
  private readonly texts: Map<string, string>;

  /**
   * `output`: what `snapshotCommand` printed. `ranged`: a byte range of a file the snapshot lists, read with
   * no look at the file first (its size and kind are the snapshot's): a remote cell's logs are read in
   * three round trips, not four.
   */
  constructor(
    readonly output: string,
    readonly root: string,
    readonly depth: number,
    private readonly fallback: CellFs,
    private readonly ranged?: (path: string, position: number, length: number) => Promise<Buffer | null>,
    listing = listingOf(output, root),
  ) {
    ({ infos: this.infos, children: this.children, texts: this.texts } = listing);
  }

  /** The same snapshot (not parsed again), `fallback` answering all it does not hold, byte ranges too. */
  over(fallback: CellFs): SnapshotFs {
    return new SnapshotFs(this.output, this.root, this.depth, fallback, undefined, { infos: this.infos, children: this.children, texts: this.texts });
  }

  /** How far below the root a path is; -1 outside it. */
  private levels(path: string): number {
    if (path === this.root) return 0;
    return path.startsWith(`${this.root}/`) ? path.slice(this.root.length + 1).split('/').length : -1;
  }

  async list(dir: string) {
    const path = posix.normalize(dir);
    const levels = this.levels(path);
    if (levels < 0 || levels >= this.depth) return this.fallback.list(dir);
    if (this.infos.get(path)?.kind !== 'dir') return null;
    return this.children.get(path) ?? [];
  }

  /** What the snapshot says of a path within its depth (null: not there); undefined below its depth or outside the root. */
  private infoOf(path: string): FileInfo | null | undefined {
    const normal = posix.normalize(path);
    const levels = this.levels(normal);
    return levels < 0 || levels > this.depth ? undefined : (this.infos.get(normal) ?? null);
  }

  /**
   * Whether `later`, a later snapshot of the same root, says the same of `path`: the same kind, size and
   * mtime (a folder: the same entries), or not there in both. False where either cannot tell (below its
   * depth, outside its root).
   */
  sameAs(later: SnapshotFs, path: string): boolean {
    const [was, is] = [this.infoOf(path), later.infoOf(path)];
    if (was === undefined || is === undefined) return false;
    if (was === null || is === null) return was === is;
    if (was.kind !== is.kind || was.size !== is.size || was.mtimeMs !== is.mtimeMs) return false;
    if (was.kind !== 'dir') return true;
    const normal = posix.normalize(path);
    if (this.levels(normal) >= Math.min(this.depth, later.depth)) return false;
    const [before, after] = [this.children.get(normal) ?? [], later.children.get(normal) ?? []];
    return before.length === after.length && before.every((entry, i) => entry.name === after[i]?.name && entry.kind === after[i]?.kind);
  }

  async stat(path: string) {
    const info = this.infoOf(path);
    return info === undefined ? this.fallback.stat(path) : info;
  }

  async read(path: string, maxBytes: number) {
    const text = this.texts.get(posix.normalize(path));
    return text === undefined || Buffer.byteLength(text) > maxBytes ? this.readFrom(path, 0, maxBytes) : { text, truncated: false };
  }

  async readFrom(path: string, position: number, maxBytes: number) {
    return asText(await this.readBytes(path, position, maxBytes));
  }

  async readBytes(path: string, position: number, maxBytes: number, into?: Buffer) {
    const info = this.infoOf(path);
    if (info?.kind !== 'file' || !this.ranged) return this.fallback.readBytes(path, position, maxBytes, into);
    const length = Math.max(0, Math.min(info.size - position, maxBytes));
    const bytes = length === 0 ? Buffer.alloc(0) : await this.ranged(path, position, length);
    return bytes && { bytes, truncated: info.size - position > maxBytes };
  }
}
