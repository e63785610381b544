import { basename, dirname } from 'node:path';
import { MORE_ENTRIES, type Entry } from '../../runners';

/**
 * A folder's mtime within this of the moment it was listed may still move in the same tick of the file
 * system's clock when an entry is added after the listing (Linux stamps folders from a clock that moves in
 * steps of up to 10 ms; a network file system's clock may be off by more): such a listing is not trusted.
 */
const RACY_MS = 2_000;

/** A folder's size and mtime, as a stat gives them (null or undefined: not there). */
type FolderStat = { size: number; mtimeMs: number } | null | undefined;

interface Listing {
  names: Set<string>;
  size: number;
  mtimeMs: number;
}

/**
 * The listings of the cell folders a discovery found, kept until each cell is read: a read asking for a
 * file the listing did not hold (a sentinel or a log most often not there) is answered "not there" without
 * a call of its own, while the folder's size and mtime are those it had when listed and that mtime was old
 * enough then to move with any entry added since.
 */
export class FoundFolders {
  /** The folders discovery listed, and when, until its cells are kept. */
  private readonly listedNow = new Map<string, { entries: readonly Entry[]; at: number }>();
  private readonly listings = new Map<string, Listing>();
  /** The cell being read, and its listing. */
  private reading: { dir: string; listing: Listing } | null = null;

  /** A folder discovery listed just now. */
  listed(dir: string, entries: readonly Entry[]): void {
    this.listedNow.set(dir, { entries, at: Date.now() });
  }

  /**
   * Of the folders discovery listed, those of `cells` kept, with their stat when listed (`statOf`), until
   * each is read; the rest let go. A cut listing (too many entries), or one too recent to trust, is not kept.
   */
  keep(cells: Iterable<string>, statOf: (dir: string) => FolderStat): void {
    for (const dir of cells) {
      const listed = this.listedNow.get(dir);
      const info = statOf(dir);
      if (!listed || !info || listed.entries.includes(MORE_ENTRIES) || info.mtimeMs > listed.at - RACY_MS) continue;
      this.listings.set(dir, { names: new Set(listed.entries.map((e) => e.name)), size: info.size, mtimeMs: info.mtimeMs });
    }
    this.listedNow.clear();
  }

  /** The cell about to be read (null: none): its listing, no longer kept, is that read's alone. */
  read(dir: string | null): void {
    const listing = dir === null ? undefined : this.listings.get(dir);
    if (dir !== null) this.listings.delete(dir);
    this.reading = dir !== null && listing ? { dir, listing } : null;
  }

  /**
   * Whether `path` is an entry of the cell being read that its listing did not hold, the folder being as it
   * was: `statOf` gives the folder's stat at the read, asked only for such an entry.
   */
  async lacks(path: string, statOf: (dir: string) => Promise<FolderStat>): Promise<boolean> {
    const reading = this.reading;
    if (!reading || dirname(path) !== reading.dir || reading.listing.names.has(basename(path))) return false;
    const info = await statOf(reading.dir);
    return !!info && info.size === reading.listing.size && info.mtimeMs === reading.listing.mtimeMs;
  }

  clear(): void {
    this.listedNow.clear();
    this.listings.clear();
  }
}
