// What a read worker keeps of what each cell's last read looked at (size and mtime of every file and
// folder), so a sweep tells a changed cell by stats alone, and what its cache saved of it for the next start.
import { readFileSync, statSync, type Stats } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { LogState } from '../../runners/common/logs';
import type { FormatName } from '../../shared/model';
import type { LookedFiles, SavedLooked } from './index-cache';

export type SavedCell = SavedLooked['cells'][number];

/** Size and mtime of a path, '-' when it is not there. */
const signature = (info: Stats | null | undefined) => (info ? `${info.size}:${info.mtimeMs}` : '-');

/**
 * A path below a cell from its form relative to the cell (made by `within`, so already normal), and back;
 * beside a cell that is a file (`../x_failures.jsonl`), the path is made normal.
 */
const under = (dir: string, rel: string) => (!rel ? dir : rel.startsWith('..') ? join(dir, rel) : `${dir}${sep}${rel}`);
const within = (dir: string, path: string) => (path === dir ? '' : path.startsWith(`${dir}${sep}`) ? path.slice(dir.length + 1) : relative(dir, path));

/** A cell's looked-at paths made whole again. */
const whole = (dir: string, looked: readonly [string, string][]) => looked.map(([rel, sig]) => [under(dir, rel), sig] as const);

/**
 * Whether any path's signature differs from its recorded one. A path that was not there is not looked at
 * when its folder is among the paths, unchanged: no entry was added to that folder since.
 */
function anyChanged(paths: Iterable<readonly [string, string]>): boolean {
  const same = new Set<string>();
  const absent: string[] = [];
  for (const [path, sig] of paths) {
    if (sig === '-') absent.push(path);
    else if (signature(statSync(path, { throwIfNoEntry: false })) !== sig) return true;
    else same.add(path);
  }
  return absent.some((path) => !same.has(dirname(path)) && statSync(path, { throwIfNoEntry: false }) !== undefined);
}

/**
 * What the cache's files say each cell's last read looked at, by cell folder; a part not saved with the
 * rows is left out. The worker's own part is read first: it found those cells last time, and finds them
 * again while the root's folders are the same; the other parts only when a cell is not in it. Each cell
 * is taken once (a discovery finds it once), so what the cache held is let go as the search goes.
 */
export function savedLooked(files: LookedFiles, own: number): { known: () => Iterable<SavedCell>; take: (dir: string) => SavedCell | undefined } {
  const cells = new Map<string, SavedCell>();
  const load = (part: number) => {
    try {
      const saved = JSON.parse(readFileSync(`${files.base}.${part}.json`, 'utf8')) as SavedLooked;
      if (saved.stamp === files.stamp) saved.cells.forEach((c) => cells.set(c.dir, c));
    } catch {
      // Missing or unreadable: those cells are read.
    }
  };
  load(own);
  let others = true;
  return {
    known: () => cells.values(),
    take(dir) {
      if (!cells.has(dir) && others) {
        for (let part = 0; part < files.parts; part++) if (part !== own) load(part);
        others = false;
      }
      const cell = cells.get(dir);
      cells.delete(dir);
      return cell;
    },
  };
}

export class WorkerLooked {
  /**
   * The files and folders each cell's last read looked at, with their signatures then: paths relative to the
   * cell, as the cache saves them (a cold status records 80,000, and a cached one restores as many).
   */
  private readonly looked = new Map<string, [string, string][]>();
  /** The format of each cell in `looked`, for the cache. */
  private readonly formats = new Map<string, FormatName>();

  /**
   * What a read of a cell looked at: replacing what its reads looked at before; added to it (what was
   * looked at before kept as it was then: a later change is still news to the sweep); or laid over it (what
   * was looked at before and not now kept: files a watch said had not changed, not looked at again).
   */
  record(dir: string, format: FormatName, seen: ReadonlyMap<string, Stats | null>, how: 'replace' | 'add' | 'overlay'): void {
    const now = [...seen].map(([path, info]): [string, string] => [within(dir, path), signature(info)]);
    const was = how === 'replace' ? undefined : this.looked.get(dir);
    if (was) {
      const merged = new Map(was);
      for (const [rel, sig] of now) if (how !== 'add' || !merged.has(rel)) merged.set(rel, sig);
      this.looked.set(dir, [...merged]);
    } else this.looked.set(dir, now);
    this.formats.set(dir, format);
  }

  /** Whether a cell's files changed since its last read (by stats alone); true for a cell never read. */
  changed(dir: string): boolean {
    const was = this.looked.get(dir);
    return !was || anyChanged(whole(dir, was));
  }

  /**
   * Whether a cached cell's files all have the signatures its last read saw: then what that read looked
   * at is taken over as if the worker had read the cell itself, and its logs' checks are returned (paths
   * made whole again) for the worker's log cache.
   */
  restore(entry: SavedCell, format: FormatName): [string, LogState][] | null {
    if (entry.format !== format || anyChanged(whole(entry.dir, entry.looked))) return null;
    this.looked.set(entry.dir, entry.looked);
    this.formats.set(entry.dir, entry.format);
    return entry.logs.map(([rel, state]) => [under(entry.dir, rel), state]);
  }

  /** These cells as the cache saves them: their signatures and their logs' checks, paths relative to each cell. */
  saved(dirs: string[], logs: Iterable<[string, LogState]>): Map<string, SavedCell> {
    const cells = new Map<string, SavedCell>();
    for (const dir of dirs) {
      const looked = this.looked.get(dir);
      const format = this.formats.get(dir);
      if (looked && format) cells.set(dir, { dir, format, looked, logs: [] });
    }
    // Each log to the cell it is in: the nearest folder above it that is one.
    for (const [path, state] of logs) {
      for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
        const entry = cells.get(dir);
        if (!entry) continue;
        entry.logs.push([within(dir, path), state]);
        break;
      }
    }
    return cells;
  }

  forget(dir: string): void {
    this.looked.delete(dir);
    this.formats.delete(dir);
  }
}
