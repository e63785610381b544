// A worker thread that finds and reads local cells with synchronous file calls: many small files are read
// fastest that way, and a slow disk stalls this thread, never the app's. It remembers what each cell's
// read looked at (worker-looked.ts), so a sweep can tell a changed cell by stats alone.
import { mkdirSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { parentPort, type MessagePort } from 'node:worker_threads';
import { JsonReader, syncLocalFs, type CellFs, type CellRead, type Entry, type ReadContext, type ScorerPicks } from '../../runners';
import { kindOf } from '../../runners/common/fs';
import { JsonlCache, KEPT_LOGS } from '../../runners/common/jsonl-cache';
import { LogCache } from '../../runners/common/logs';
import { logProblems, readCell } from '../../runners/read';
import type { FormatName, Problem } from '../../shared/model';
import { findCells, type Found } from '../scan';
import type { LookedFiles, SavedLooked } from './index-cache';
import { savedLooked, WorkerLooked, type SavedCell } from './worker-looked';
import type { Reread, UnitsSent, WorkerJob, WorkerReply } from './worker-jobs';
import { lineThreads } from './line-threads';
import { WorkerUnits } from './worker-units';
import { compareTable, tableBuffers } from '../../shared/board-comparisons';
import { agentUnits } from '../../shared/units';
import { JsonBytes, writeComparisons } from '../comparisons-json';
import { collectGarbage } from './garbage';
import { OpenJobs } from './open-jobs';
import { replaceFileSync } from '../state-file';
import { FoundFolders } from './found-folders';
import { append } from '../../shared/arrays';
import { LOCAL } from '../../shared/address';

/** What each cell's last read looked at. */
const cellsLooked = new WorkerLooked();
/** Each cell's units, for the board. */
const units = new WorkerUnits();

/** What the cell being read looked at: each path's stat once, each folder's listing once. */
let seen = new Map<string, Stats | null>();
let listed = new Map<string, Promise<Entry[] | null>>();
const base = syncLocalFs((path, info) => {
  if (!seen.has(path)) seen.set(path, info);
});
/** Files discovery read to tell a cell's format (its run.json), kept until that cell is read. */
const detected = new Map<string, { file: { text: string; truncated: boolean }; info: Stats }>();
/** What discovery's file calls saw, by path: the folders it searches are searched interleaved. */
const discoveryStats = new Map<string, Stats | null>();
const discoveryFs = syncLocalFs((path, info) => discoveryStats.set(path, info));
/** The listings of the cell folders discovery found, until each is read. */
const found = new FoundFolders();
const discovering: CellFs = {
  ...discoveryFs,
  async list(dir) {
    const entries = await discoveryFs.list(dir);
    if (entries) found.listed(dir, entries);
    return entries;
  },
  async read(path, maxBytes) {
    const file = await discoveryFs.read(path, maxBytes);
    const info = discoveryStats.get(path);
    if (file && info) detected.set(path, { file, info });
    return file;
  },
};
const tracking: CellFs = {
  list(dir) {
    let entries = listed.get(dir);
    if (!entries) listed.set(dir, (entries = base.list(dir)));
    return entries;
  },
  async stat(path) {
    if (!seen.has(path) && (await found.lacks(path, async (dir) => (seen.has(dir) ? seen.get(dir) : base.stat(dir))))) seen.set(path, null);
    if (!seen.has(path)) return base.stat(path);
    const info = seen.get(path);
    return info ? { size: info.size, mtimeMs: info.mtimeMs, kind: kindOf(info) } : null;
  },
  async read(path, maxBytes) {
    const known = detected.get(path);
    if (!known) return base.read(path, maxBytes);
    detected.delete(path);
    // Read moments ago while finding the cell: still good if its size and mtime are the same.
    const info = statSync(path, { throwIfNoEntry: false }) ?? null;
    if (!info || info.size !== known.info.size || info.mtimeMs !== known.info.mtimeMs) return base.read(path, maxBytes);
    if (!seen.has(path)) seen.set(path, info);
    return known.file;
  },
  readFrom: (path, position, maxBytes) => base.readFrom(path, position, maxBytes),
  readBytes: (path, position, maxBytes, into) => base.readBytes(path, position, maxBytes, into),
};
const json = new JsonReader(tracking, { keepLastGood: false });
// Parts of long logs go to threads of this worker's own script (worker-main.ts).
const split = lineThreads();
const jsonl = new JsonlCache(KEPT_LOGS, split);
const logs = new LogCache(tracking);
/** Results go back in batches, so the first rows arrive while the rest are read. */
const BATCH = 200;

const reply = (message: WorkerReply, transfer: ArrayBuffer[] = []) => parentPort?.postMessage(message, transfer);
/** The cells open in the window, here or on hosts, and the paired tests. */
const open = new OpenJobs(reply, split);

/**
 * Runs `each` on every cell with fresh per-cell memos, remembers what it looked at (replacing, or with
 * `merge` adding to, what the cell's reads looked at before), and sends the results in batches.
 */
async function eachCell<C extends Reread, T>(cells: C[], merge: boolean, each: (cell: C, ctx: ReadContext) => Promise<T>, send: (batch: T[], done: boolean) => void, scorers: ScorerPicks = {}): Promise<void> {
  let batch: T[] = [];
  for (const cell of cells) {
    seen = new Map();
    listed = new Map();
    found.read(cell.dir);
    batch.push(await each(cell, { fs: tracking, json, jsonl, now: Date.now(), host: LOCAL, scorers }));
    // A cell read for what a watch saw change keeps what its logs not looked at again had when last looked at.
    cellsLooked.record(cell.dir, cell.format, seen, merge ? 'add' : cell.changed ? 'overlay' : 'replace');
    if (batch.length >= BATCH) {
      send(batch, false);
      batch = [];
    }
  }
  found.read(null);
  send(batch, true);
}

/** What the cache says, read once for all of a discovery's jobs. */
let lastCache: { key: string; files: LookedFiles; own: number; saved: ReturnType<typeof savedLooked> } | undefined;
function cacheOf(files: LookedFiles, own: number): ReturnType<typeof savedLooked> {
  const key = `${files.base} ${files.stamp} ${own}`;
  if (lastCache?.key !== key) lastCache = { key, files, own, saved: savedLooked(files, own) };
  return lastCache.saved;
}

/** A cached cell whose files are as its last read saw them is taken over, its units and logs' checks too. */
function unchanged(entry: SavedCell | undefined, format: FormatName): boolean {
  const logStates = entry ? cellsLooked.restore(entry, format) : null;
  if (!entry || !logStates) return false;
  units.restore(entry.dir);
  logs.restore(logStates);
  return true;
}

/** Writes part `part` of the cache's looked files: these cells' signatures and logs' checks, paths relative to each cell. */
function saveLooked(dirs: string[], files: LookedFiles, part: number): void {
  const cells = cellsLooked.saved(dirs, logs.saved());
  const saved = Object.fromEntries(dirs.flatMap((dir) => {
    const text = cells.has(dir) ? units.encoded(dir, lastCache) : undefined;
    return text === undefined ? [] : [[dir, text]];
  }));
  for (const [file, value] of [
    [`${files.base}.${part}.json`, { stamp: files.stamp, cells: [...cells.values()] } satisfies SavedLooked],
    // Apart: only the board reads them, and a status need not parse them.
    [`${files.base}.${part}.units.json`, { stamp: files.stamp, units: saved }],
  ] as const) {
    try {
      mkdirSync(dirname(file), { recursive: true });
      replaceFileSync(file, JSON.stringify(value));
    } catch {
      // Not kept: those cells are read at the next start.
    }
  }
}

/** The units another worker (or this one) sends over `port`; its thread stopping first fails the comparison. */
function unitsFrom(port: MessagePort): Promise<UnitsSent> {
  return new Promise((resolve, reject) => {
    port.once('message', (sent: UnitsSent) => (resolve(sent), port.close()));
    port.once('close', () => reject(new Error('a read worker stopped before it sent the units of its cells on the board')));
  });
}

async function handle(job: WorkerJob): Promise<void> {
  if (job.type === 'discover') {
    const problems: Problem[] = [];
    const cells: Found[] = [];
    const cached = job.cache ? cacheOf(job.cache, job.part) : null;
    const known = new Map([...job.known, ...[...(cached?.known() ?? [])].map((c) => [c.dir, c.format] as const)]);
    for (const dir of job.dirs) append(cells, await findCells(discovering, dir, problems, job.depth, known));
    found.keep(cells.map((c) => c.dir), (dir) => discoveryStats.get(dir));
    discoveryStats.clear();
    reply({ type: 'discovered', id: job.id, cells, problems, unchanged: cached ? cells.filter((c) => unchanged(cached.take(c.dir), c.format)).map((c) => c.dir) : [] });
  } else if (job.type === 'restore') {
    const cached = cacheOf(job.cache, job.part);
    reply({ type: 'restored', id: job.id, unchanged: job.cells.filter((c) => unchanged(cached.take(c.dir), c.format)).map((c) => c.dir) });
  } else if (job.type === 'read') {
    // A read replaces what the cell's last read looked at. The units a paired test pairs are kept here, and
    // sent only to the worker comparing them (a 'unitsTo' job: the board): too many to send for every cell.
    const keepUnits = (dir: string, read: CellRead) => (units.keep(dir, read.units), { ...read, units: [] });
    await eachCell(
      job.cells,
      false,
      async ({ dir, format, changed }, ctx) => keepUnits(dir, await readCell(dir, format, ctx, job.logs ? { logs, changed: changed && new Set(changed) } : {})),
      (reads, done) => reply({ type: 'reads', id: job.id, reads, done }),
      job.scorers,
    );
    detected.clear();
    found.clear();
  } else if (job.type === 'unitsTo') {
    const missing = job.cells.filter((c) => !units.has(c.dir, lastCache));
    await eachCell(missing, false, async ({ dir, format }, ctx) => units.keep(dir, (await readCell(dir, format, ctx)).units), () => undefined, job.scorers);
    job.port.postMessage(job.cells.map((c) => [c.dir, units.encoded(c.dir, lastCache) ?? '']) satisfies UnitsSent);
    job.port.close();
    reply({ type: 'unitsSent', id: job.id });
  } else if (job.type === 'logs') {
    // The logs' check adds to it.
    await eachCell(job.cells, true, async ({ dir, format }, ctx) => ({ dir, problems: await logProblems(dir, format, ctx, logs) }), (found, done) =>
      reply({ type: 'logged', id: job.id, logs: found, done }),
    );
  } else if (job.type === 'compare') {
    const held = new Map((await Promise.all(job.held.map(unitsFrom))).flat());
    // A local agent's units are its collection's, held by path; a remote one's came with its entry.
    for (const entry of job.entries) {
      const collection = entry.agentOf && held.get(entry.agentOf.path);
      entry.units = held.get(entry.path) ?? (entry.agentOf && collection !== undefined ? agentUnits(collection, entry.agentOf.agent) : entry.units);
    }
    const table = compareTable(job.entries);
    if (job.json) {
      const out = new JsonBytes((bytes) => reply({ type: 'comparisonsJson', id: job.id, bytes }, [bytes.buffer as ArrayBuffer]));
      writeComparisons(out, table, new Map(job.entries.map((e) => [e.path, e.planned ?? null])));
      out.flush();
    }
    reply({ type: 'compared', id: job.id, table }, tableBuffers(table));
  } else if (job.type === 'detail' || job.type === 'transcript' || job.type === 'pair') {
    await open.run(job);
  } else if (job.type === 'sweep') {
    const dirty = job.dirs.filter((dir) => cellsLooked.changed(dir));
    reply({ type: 'swept', id: job.id, dirty });
  } else if (job.type === 'save') {
    saveLooked(job.dirs, job.files, job.part);
    reply({ type: 'saved', id: job.id });
  } else if (job.type === 'unitsAhead') {
    units.ahead(lastCache);
  } else if (job.type === 'forget') {
    for (const dir of job.dirs) {
      cellsLooked.forget(dir);
      units.forget(dir);
      logs.forget(`${dir}/`);
    }
  }
}

// One job at a time, in order; but a remote cell's row, whose reads wait on its host, runs beside them.
let queue = Promise.resolve();
parentPort?.on('message', (job: WorkerJob) => {
  // A host's answer to a file call of a job: not a job to wait behind it.
  if (job.type === 'fsAnswer') return open.answered(job);
  if (job.type === 'snapshot') return open.snapshot(job);
  if (job.type === 'summary') return void open.summary(job).catch((error: Error) => reply({ type: 'failed', id: job.id, message: error.message, name: error.name }));
  queue = queue
    .then(() => handle(job))
    .catch((error: Error) => reply({ type: 'failed', id: 'id' in job ? job.id : -1, message: error.message, name: error.name }))
    .then(collectGarbage);
});
reply({ type: 'ready' });
