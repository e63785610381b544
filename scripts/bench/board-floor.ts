// Child of bench:board: what `board --json` does beyond a status, in turn on one thread, nothing crossing threads.
// Every cell's units as the index cache holds them (loaded first, not timed), then timed: the comparisons
// worked out and written to stdout, as the command writes them (in a read worker), here. Prints its own time
// (not Node's start) on stderr.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareTable, type BoardEntry } from '../../shared/board-comparisons';
import { JsonBytes, writeComparisons } from '../../main/comparisons-json';

const [indexDir, boardJson] = process.argv.slice(2) as [string, string];
const units = new Map<string, string>();
for (const file of readdirSync(indexDir).filter((name) => name.endsWith('.units.json'))) {
  for (const [path, text] of Object.entries((JSON.parse(readFileSync(join(indexDir, file), 'utf8')) as { units: Record<string, string> }).units)) units.set(path, text);
}
// The cells as `board --json` printed them: their board and labels.
const cells = (JSON.parse(readFileSync(boardJson, 'utf8')) as { cells: { path: string; format: string; board: string; harness: string; model: string; condition: string; effort: string; episodes: { planned: number | null } }[] }).cells;
const entries: BoardEntry[] = cells
  .filter((cell) => cell.board === 'on')
  .map((cell) => ({ path: cell.path, boardName: cell.format, labels: { harness: cell.harness, model: cell.model, condition: cell.condition, effort: cell.effort }, units: units.get(cell.path) ?? '', planned: cell.episodes.planned }));

const started = performance.now();
const table = compareTable(entries);
// The comparisons only: the cells are written while the comparing goes on.
const out = new JsonBytes((bytes) => process.stdout.write(bytes));
writeComparisons(out, table, new Map(entries.map((e) => [e.path, e.planned ?? null])));
out.flush();
console.error(JSON.stringify({ ms: performance.now() - started, comparisons: table.a.length }));
