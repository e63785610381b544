// What a runs root's index knew when it last saved, kept in the data folder: at the next start (or
// `status`), a cell whose files all have the sizes and mtimes they had then is not parsed again. The
// rows, which this thread reads (a row a line, parsed a few hundred at a turn), and what each cell's read
// looked at (paths and signatures, the logs' checks), which the read workers read themselves while they
// find the cells; and a small head saying which of those were saved together, so the workers start at once
// while this thread parses the rows.
import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CellSummary, FormatName } from '../../shared/model';
import { StateFile } from '../state-file';
import { READERS } from '../version';
import { nextTurn, ROWS_A_TURN } from '../concurrency';
import type { LogState } from '../../runners/common/logs';

/** Raised when what a cache holds changes shape; a cache of another version or app version is not used. */
const FORMAT = 9;

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

/** Read as JSON; null when missing or not JSON (it is only a cache). */
const readJson = (path: string) =>
  readFile(path, 'utf8')
    .then((text) => JSON.parse(text) as Record<string, unknown> | null)
    .catch(() => null);

/**
 * The rows saved under `stamp`, by cell folder; none where the file is missing, of another stamp, or cut
 * short. The file holds its stamp on its first line, then a row a line, parsed ROWS_A_TURN at a turn: parsed
 * as one text, 10,000 rows held this thread, which answers the window, for 330 ms at each start.
 */
async function readRows(path: string, stamp: string): Promise<Map<string, CellSummary>> {
  const rows = new Map<string, CellSummary>();
  const text = await readFile(path, 'utf8').catch(() => '');
  if (!text.endsWith('\n')) return rows;
  try {
    let end = text.indexOf('\n');
    if ((JSON.parse(text.slice(0, end)) as { stamp?: unknown } | null)?.stamp !== stamp) return rows;
    for (let n = 1; end + 1 < text.length; n++) {
      if (n % ROWS_A_TURN === 0) await nextTurn();
      const start = end + 1;
      end = text.indexOf('\n', start);
      const row = JSON.parse(text.slice(start, end)) as CellSummary | null;
      if (typeof row?.path === 'string') rows.set(row.path, row);
    }
    return rows;
  } catch {
    return new Map();
  }
}

/** The rows file's text: the stamp's line, then a row a line. */
async function rowsText(stamp: string, rows: readonly CellSummary[]): Promise<string> {
  const lines = [JSON.stringify({ stamp })];
  for (let i = 0; i < rows.length; i++) {
    if (i > 0 && i % ROWS_A_TURN === 0) await nextTurn();
    lines.push(JSON.stringify(rows[i]));
  }
  return `${lines.join('\n')}\n`;
}

/** The scorers picked, as one text that does not depend on their order. */
export const picksKey = (picks: Readonly<Record<string, string>>) => JSON.stringify(Object.entries(picks).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

export class IndexCache {
  private readonly rowsFile: StateFile;
  private readonly headFile: StateFile;

  private constructor(
    private readonly root: string,
    private readonly base: string,
    /** The rows saved, by cell folder; empty when there was no usable cache. Parsed while the workers look. */
    readonly rows: Promise<ReadonlyMap<string, CellSummary>>,
    private readonly saved: LookedFiles | null,
  ) {
    this.rowsFile = new StateFile(`${base}.rows.json`);
    this.headFile = new StateFile(`${base}.head.json`);
  }

  /**
   * The root's cache in `dataDir`; empty when there is none or it cannot be used (it is only a cache), or was
   * saved when other scorers were picked (`picks`, picksKey's): its rows were read by them.
   */
  static async open(dataDir: string, root: string, picks = ''): Promise<IndexCache> {
    const base = join(dataDir, 'index', createHash('sha256').update(root).digest('hex').slice(0, 24));
    const head = await readJson(`${base}.head.json`);
    const usable = head?.format === FORMAT && head.readers === READERS && head.root === root && (head.picks ?? '') === picks && typeof head.stamp === 'string' && typeof head.parts === 'number';
    if (!usable) return new IndexCache(root, base, Promise.resolve(new Map()), null);
    const stamp = head.stamp as string;
    return new IndexCache(root, base, readRows(`${base}.rows.json`, stamp), { base: `${base}.looked`, parts: head.parts as number, stamp });
  }

  /** For the workers' discovery: null when there is nothing to compare with. */
  looked(): LookedFiles | null {
    return this.saved;
  }

  /**
   * Keeps the rows; `saveLooked` has each worker write what it remembers of its cells (they hold it, and
   * it never needs to cross to this thread). A row no worker remembers is not used at the next start.
   */
  async save(rows: Iterable<CellSummary>, saveLooked: (files: LookedFiles) => Promise<number>, picks = ''): Promise<void> {
    const stamp = randomUUID();
    // The rows' text is made here while the workers write theirs.
    const [parts, text] = await Promise.all([saveLooked({ base: `${this.base}.looked`, parts: 0, stamp }), rowsText(stamp, [...rows])]);
    await this.rowsFile.write(text);
    await this.headFile.write(JSON.stringify({ format: FORMAT, readers: READERS, root: this.root, picks, stamp, parts }));
  }
}
