// What a read worker keeps of each cell's units (shared/units.ts) for the board: the last read's, and those
// its cache saved for cells restored from it (unchanged since), read when the board first asks.
import { readFileSync } from 'node:fs';
import type { EpisodeUnit } from '../../shared/model';
import { encodeUnits } from '../../shared/units';
import type { LookedFiles } from './index-cache';

/** A list this long is kept as the adapter gave it, encoded when asked for. */
const LONG_UNITS = 10_000;

function loadUnits(files: LookedFiles, part: number, into: Map<string, string>): void {
  try {
    const saved = JSON.parse(readFileSync(`${files.base}.${part}.units.json`, 'utf8')) as { stamp: string; units: Record<string, string> };
    if (saved.stamp === files.stamp) for (const [cell, text] of Object.entries(saved.units)) into.set(cell, text);
  } catch {
    // Missing or unreadable: those cells are read.
  }
}

/** The index cache a worker's discovery read (its files, and the part that is this worker's), if any. */
type CacheRead = { files: LookedFiles; own: number } | undefined;
/** The units a cache saved: this worker's part, and the other parts once one was looked for there. */
type Restored = { files: LookedFiles; units: Map<string, string>; others: boolean };

export class WorkerUnits {
  /**
   * Each cell's units as its last read found them. A long list is kept as it is: a collection of 100,000
   * rollouts that grows by one would otherwise cost an encoding of all of them at each read.
   */
  private readonly units = new Map<string, string | EpisodeUnit[]>();
  /** Cells taken over from the cache, whose saved units stand until they are read again. */
  private readonly restoredDirs = new Set<string>();
  private restored: Restored | undefined;

  /** The units a read found. */
  keep(dir: string, units: EpisodeUnit[]): void {
    this.units.set(dir, units.length > LONG_UNITS ? units : encodeUnits(units));
  }

  /** A cell taken over from the cache: its saved units are its own until it is read. */
  restore(dir: string): void {
    this.restoredDirs.add(dir);
  }

  forget(dir: string): void {
    this.units.delete(dir);
    this.restoredDirs.delete(dir);
  }

  /** Whether the last read's units, or the cache's for a restored cell, are known. */
  has(dir: string, cache: CacheRead): boolean {
    return this.units.has(dir) || this.saved(dir, cache) !== undefined;
  }

  /** The cell's units encoded: the last read's, else the cache's for a restored cell. */
  encoded(dir: string, cache: CacheRead): string | undefined {
    const units = this.units.get(dir);
    if (units !== undefined) return typeof units === 'string' ? units : encodeUnits(units);
    return this.saved(dir, cache);
  }

  /**
   * The units the cache saved for a restored cell: this worker's own part first (it found those cells
   * last time), the others only for a cell not in it.
   */
  private saved(dir: string, cache: CacheRead): string | undefined {
    if (!this.restoredDirs.has(dir) || !cache) return undefined;
    this.restored = this.savedOf(cache);
    const { files, own } = cache;
    if (!this.restored.units.has(dir) && !this.restored.others) {
      this.restored.others = true;
      for (let part = 0; part < files.parts; part++) if (part !== own) loadUnits(files, part, this.restored.units);
    }
    const text = this.restored.units.get(dir);
    if (text !== undefined) this.units.set(dir, text);
    return text;
  }

  /** The units the cache saved in this worker's own part, read the first time they are asked for (or `ahead`). */
  private savedOf({ files, own }: NonNullable<CacheRead>): Restored {
    if (this.restored?.files === files) return this.restored;
    const restored: Restored = { files, units: new Map(), others: false };
    loadUnits(files, own, restored.units);
    return restored;
  }

  /** Reads the cache's units of this worker's part now, before the board asks (it will ask for them all). */
  ahead(cache: CacheRead): void {
    if (cache) this.restored = this.savedOf(cache);
  }
}
