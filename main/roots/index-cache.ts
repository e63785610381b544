// What a runs root's index knew when it last saved, kept in the data folder: at the next start (or
// `status`), a cell whose files all have the sizes and mtimes they had then is not parsed again. Two
// files: the rows, which this thread reads, and what each cell's read looked at (paths and signatures,
// the logs' checks), which the read workers read themselves while they find the cells.
import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CellSummary, FormatName } from '../../shared/model';
import { StateFile } from '../state-file';
import { APP_VERSION } from '../version';
import type { LogState } from '../../runners/common/logs';

/** Raised when what a cache holds changes shape; a cache of another version or app version is not used. */
const FORMAT = 2;

/** What a worker remembers of a cell's last read: each path it looked at with its signature, and its logs' checks (paths relative to the cell). */
export interface Remembered {
  dir: string;
  looked: [string, string][];
  logs: [string, LogState][];
}

/** Where the workers keep what each cell's read looked at: one file per worker, all saved under one stamp. */
export interface LookedFiles {
  /** The path of part `i` is `${base}.${i}.json`. */
  base: string;
  parts: number;
  /** The rows file's stamp: the files were saved together. */
  stamp: string;
}

/** One worker's part: each cell's format and what its last read looked at, paths relative to the cell. */
export interface SavedLooked {
  stamp: string;
  cells: (Remembered & { format: FormatName })[];
}

export class IndexCache {
  private constructor(
    private readonly root: string,
    private readonly rowsFile: StateFile,
    private readonly lookedBase: string,
    /** The rows saved, by cell folder; empty when there was no usable cache. */
    readonly rows: ReadonlyMap<string, CellSummary>,
    private readonly saved: LookedFiles | null,
  ) {}

  /** The root's cache in `dataDir`; empty when there is none or it cannot be used (it is only a cache). */
  static async open(dataDir: string, root: string): Promise<IndexCache> {
    const base = join(dataDir, 'index', createHash('sha256').update(root).digest('hex').slice(0, 24));
    const saved = await readFile(`${base}.rows.json`, 'utf8')
      .then((text) => JSON.parse(text) as { format?: unknown; app?: unknown; root?: unknown; stamp?: unknown; parts?: unknown; rows?: unknown })
      .catch(() => null);
    const usable =
      saved?.format === FORMAT && saved.app === APP_VERSION && saved.root === root && typeof saved.stamp === 'string' && typeof saved.parts === 'number' && Array.isArray(saved.rows);
    const rows = usable ? (saved.rows as CellSummary[]).filter((row) => typeof row?.path === 'string') : [];
    const looked = usable ? { base: `${base}.looked`, parts: saved.parts as number, stamp: saved.stamp as string } : null;
    return new IndexCache(root, new StateFile(`${base}.rows.json`), `${base}.looked`, new Map(rows.map((r) => [r.path, r])), looked);
  }

  /** For the workers' discovery: null when there is nothing to compare with. */
  looked(): LookedFiles | null {
    return this.saved;
  }

  /**
   * Keeps the rows; `saveLooked` has each worker write what it remembers of its cells (they hold it, and
   * it never needs to cross to this thread). A row no worker remembers is not used at the next start.
   */
  async save(rows: Iterable<CellSummary>, saveLooked: (files: LookedFiles) => Promise<number>): Promise<void> {
    const files = { base: this.lookedBase, parts: 0, stamp: randomUUID() };
    files.parts = await saveLooked(files);
    await this.rowsFile.write(JSON.stringify({ format: FORMAT, app: APP_VERSION, root: this.root, stamp: files.stamp, parts: files.parts, rows: [...rows] }));
  }
}
