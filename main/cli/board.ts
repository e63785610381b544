import { parseArgs } from 'node:util';
import { gridOf, SIGNIFICANT, wilson95, type BoardComparison } from '../../shared/board';
import { formatP } from '../../shared/mcnemar';
import type { CellSummary } from '../../shared/model';
import { BoardReader } from '../board';
import { cellJson } from './cell-json';
import { withPlaces } from './places';
import { UsageError, type Io } from './io';
import { printable, problemLine } from './printable';
import { success, table } from './table';

export const BOARD_HELP = `cellwatch board [--json] [--accept-new-host-key] ROOT...

The boards of the cells below each runs root (local or ALIAS:/path): one table per board (a format and
its protocol, or a bigym task), a row per harness, condition and effort, a column per model, each square
successes/scored, the rate and its Wilson 95 % interval. Only cells on the board; then every pair that
differs in exactly one of harness, model, condition, effort, by the exact McNemar test over the
episodes both scored, Holm-adjusted over all the pairs printed.
  --json   {"cells": [...], "comparisons": [...]} as runners/FORMATS.md describes`;

/** A cell as board --json prints it: as in status, with its labels, counts and interval. */
function boardCell(cell: CellSummary) {
  const { scored, successes } = cell.episodes;
  return { ...cellJson(cell), ...cell.labels, scored, successes, ci95: wilson95(successes, scored) };
}

/**
 * Each comparison's JSON, as JSON.stringify writes it (the same keys in the same order), each cell's path
 * quoted once: 180,000 comparisons name 10,000 paths, and stringifying each whole took most of the output's time.
 */
function comparisonJson(): (c: BoardComparison) => string {
  const quoted = new Map<string, string>();
  const quote = (path: string) => quoted.get(path) ?? (quoted.set(path, JSON.stringify(path)), quoted.get(path) as string);
  return (c) =>
    `{"a":${quote(c.a)},"b":${quote(c.b)},"field":"${c.field}","both":${c.both},"only_a":${c.only_a},"only_b":${c.only_b},"neither":${c.neither},"left_out":${c.left_out},"p_value":${c.p_value},"p_adjusted":${c.p_adjusted}}`;
}

/** How many lines of a JSON array go out at once: 46 MB made one string cost more in copies and GC than the JSON itself. */
const CHUNK = 2000;

/** `"key": [` and a value a line, written a chunk at a time; `last`: no comma after the array. */
function jsonArray<T>(io: Io, key: string, values: T[], json: (value: T) => string, last: boolean): void {
  if (values.length === 0) return io.out(`  "${key}": []${last ? '' : ','}`);
  io.out(`  "${key}": [`);
  for (let start = 0; start < values.length; start += CHUNK) {
    const more = start + CHUNK < values.length;
    io.out(`    ${values.slice(start, start + CHUNK).map(json).join(',\n    ')}${more ? ',' : ''}`);
  }
  io.out(`  ]${last ? '' : ','}`);
}

/** The square of one cell: successes/scored, rate and interval, and coverage when not every planned episode is scored. */
function square(cell: CellSummary): string {
  const { scored, planned } = cell.episodes;
  const coverage = planned !== null && scored < planned ? ` (${scored} of ${planned})` : '';
  return `${success(cell.episodes.successes, scored)}${coverage}`;
}

function printBoard(name: string, cells: CellSummary[], comparisons: BoardComparison[], io: Io): void {
  // The window's grid: the same columns, rows and cell at each crossing.
  const grid = gridOf(cells);
  io.out(printable(name));
  const rows = grid.rows.map((row, r) => [row, ...grid.columns.map((_, c) => { const cell = grid.at(r, c); return cell ? square(cell) : '-'; })]);
  io.out(table(['HARNESS · CONDITION · EFFORT', ...grid.columns], rows, [false, ...grid.columns.map(() => true)]));
  const byPath = new Map(cells.map((c) => [c.path, c]));
  const real = comparisons.filter((c) => byPath.has(c.a) && c.p_adjusted < SIGNIFICANT);
  for (const c of real) {
    const [better, worse] = c.only_a > c.only_b ? [c.a, c.b] : [c.b, c.a];
    const label = (path: string) => (byPath.get(path) as CellSummary).labels[c.field] ?? '?';
    io.out(printable(`  ${c.field} ${label(better)} beats ${label(worse)} (${(byPath.get(better) as CellSummary).name} vs ${(byPath.get(worse) as CellSummary).name}): ${Math.max(c.only_a, c.only_b)} to ${Math.min(c.only_a, c.only_b)} discordant, p = ${formatP(c.p_value)}, Holm-adjusted ${formatP(c.p_adjusted)}${c.left_out ? `, ${c.left_out} episodes on one side only left out` : ''}`));
  }
  if (!real.length) io.out(`  no difference survives Holm's correction (${comparisons.filter((c) => byPath.has(c.a)).length} one-field comparisons)`);
  io.out('');
}

export async function board(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, 'accept-new-host-key': { type: 'boolean', default: false } },
  });
  if (positionals.length === 0) throw new UsageError(`name at least one runs root\n\n${BOARD_HELP}`);
  const { cells, comparisons } = await withPlaces({ acceptNewHostKey: values['accept-new-host-key'] }, async (places) => {
    const listed = await places.listCells(positionals);
    for (const p of listed.problems) io.err(problemLine(p));
    const withBoard = listed.cells.filter((c) => c.board !== null);
    const report = await new BoardReader(places.contextOf, places.pool).report(withBoard);
    return { cells: withBoard, comparisons: report.boards.flatMap((b) => b.comparisons) };
  });
  if (values.json) {
    // A cell a line and a comparison a line: 180,000 comparisons (10,000 cells) are 60 MB spread over a line a field.
    io.out('{');
    jsonArray(io, 'cells', cells, (c) => JSON.stringify(boardCell(c)), false);
    jsonArray(io, 'comparisons', comparisons, comparisonJson(), true);
    io.out('}');
    return 0;
  }
  const boards = new Map<string, CellSummary[]>();
  for (const cell of cells) if (cell.board === 'on' && cell.boardName) boards.set(cell.boardName, [...(boards.get(cell.boardName) ?? []), cell]);
  if (boards.size === 0) io.out(`No cell of ${positionals.join(', ')} is on a board.`);
  for (const [name, on] of [...boards].sort(([a], [b]) => a.localeCompare(b))) printBoard(name, on, comparisons, io);
  const off = cells.filter((c) => c.board !== 'on');
  if (off.length) io.out(['Not on the board:', ...off.map((c) => printable(`  ${c.name} (${c.board}): ${c.board_reasons.join('; ')}`))].join('\n'));
  return 0;
}
