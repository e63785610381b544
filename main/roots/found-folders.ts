import { basename, dirname } from 'node:path';
import type { Stats } from 'node:fs';
import { MORE_ENTRIES, type Entry } from '../../runners';

/**
 * A folder's mtime within this of the moment it was listed may still move in the same tick of the file
 * system's clock when an entry is added after the listing (Linux stamps folders from a clock that moves in
 * steps of up to 10 ms; a network file system's clock may be off by more): such a listing is not trusted.
 */
const RACY_MS = 2_000;

interface Listing {
  names: Set<string>;
  size: number;
  mtimeMs: number;
}

/**
 * The listings of the cell folders a discovery found, kept until each cell is read: a read asking for a
 * file the listing did not hold (a coding-agent cell's DRAIN, driver.log and vram.jsonl, most often not
 * there) is answered "not there" without a call of its own, while the folder's size and mtime are those
 * it had when listed and that mtime was old enough then to move with any entry added since.
 */
export class FoundFolders {
  private readonly listings = new Map<string, Listing>();

  /** A folder's listing and its stat when listed; a cut listing (too many entries) is not kept. */
  keep(dir: string, entries: readonly Entry[], info: Stats, listedAt: number): void {
    if (entries.includes(MORE_ENTRIES) || info.mtimeMs > listedAt - RACY_MS) return;
    this.listings.set(dir, { names: new Set(entries.map((e) => e.name)), size: info.size, mtimeMs: info.mtimeMs });
  }

  /** The listing of a cell about to be read, no longer kept here: its read's own. */
  take(dir: string): FolderListing | null {
    const listing = this.listings.get(dir);
    this.listings.delete(dir);
    return listing ? new FolderListing(dir, listing) : null;
  }

  clear(): void {
    this.listings.clear();
  }
}

/** One cell folder's listing from its discovery, for that cell's read. */
export class FolderListing {
  constructor(
    readonly dir: string,
    private readonly listing: Listing,
  ) {}

  /**
   * Whether `path` is an entry of this folder that its listing did not hold, the folder being as it was:
   * `now` gives its stat at the read, asked only for such an entry.
   */
  async lacks(path: string, now: () => Promise<{ size: number; mtimeMs: number } | null | undefined>): Promise<boolean> {
    if (dirname(path) !== this.dir || this.listing.names.has(basename(path))) return false;
    const info = await now();
    return !!info && info.size === this.listing.size && info.mtimeMs === this.listing.mtimeMs;
  }
}
