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

/** What the workers load: each cell's format and what its last read looked at, paths relative to the cell. */
export interface LookedFile {
  path: string;
  /** The rows file's stamp: the two were saved together. */
  stamp: string;
}

export interface SavedLooked {
  stamp: string;
  cells: (Remembered & { format: FormatName })[];
}

export class IndexCache {
  private constructor(
    private readonly root: string,
    private readonly rowsFile: StateFile,
    private readonly lookedFile: StateFile,
    /** The rows saved, by cell folder; empty when there was no usable cache. */
    readonly rows: ReadonlyMap<string, CellSummary>,
    private readonly stamp: string | null,
  ) {}

  /** The root's cache in `dataDir`; empty when there is none or it cannot be used (it is only a cache). */
  static async open(dataDir: string, root: string): Promise<IndexCache> {
    const base = join(dataDir, 'index', createHash('sha256').update(root).digest('hex').slice(0, 24));
    const saved = await readFile(`${base}.rows.json`, 'utf8')
      .then((text) => JSON.parse(text) as { format?: unknown; app?: unknown; root?: unknown; stamp?: unknown; rows?: unknown })
      .catch(() => null);
    const usable = saved?.format === FORMAT && saved.app === APP_VERSION && saved.root === root && typeof saved.stamp === 'string' && Array.isArray(saved.rows);
    const rows = usable ? (saved.rows as CellSummary[]).filter((row) => typeof row?.path === 'string') : [];
    return new IndexCache(root, new StateFile(`${base}.rows.json`), new StateFile(`${base}.looked.json`), new Map(rows.map((r) => [r.path, r])), usable ? (saved.stamp as string) : null);
  }

  /** For the workers' discovery: null when there is nothing to compare with. */
  looked(): LookedFile | null {
    return this.stamp ? { path: this.lookedFile.path, stamp: this.stamp } : null;
  }

  /** Keeps the rows with what the workers remember of each; a row they do not remember is left out. */
  async save(rows: Iterable<CellSummary>, remembered: Remembered[]): Promise<void> {
    const byDir = new Map(remembered.map((r) => [r.dir, r]));
    const kept = [...rows].filter((row) => byDir.has(row.path));
    const stamp = randomUUID();
    const head = { format: FORMAT, app: APP_VERSION, root: this.root, stamp };
    await this.lookedFile.write(JSON.stringify({ ...head, cells: kept.map((row) => ({ ...byDir.get(row.path), format: row.format })) }));
    await this.rowsFile.write(JSON.stringify({ ...head, rows: kept }));
  }
}
