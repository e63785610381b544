import { parseArgs } from 'node:util';
import { boardRows, downOf, gridOf } from '../../shared/board';
import { comparisonsOf, SIGNIFICANT, type BoardComparison } from '../../shared/board-comparisons';
import { formatP } from '../../shared/mcnemar';
import { counted } from '../../shared/counts';
import type { CellSummary } from '../../shared/model';
import { append } from '../../shared/arrays';
import { BoardReader } from '../board';
import { writeBoardJson } from './board-json';
import { listCellsAt, withPlaces } from './places';
import { UsageError, type Io } from './io';
import { printable, problemLine } from './printable';
import { success, table } from './table';

export const BOARD_HELP = `cellwatch board [--json] [--accept-new-host-key] ROOT...

The boards of the cells below each runs root (local or ALIAS:/path): one table per board (a format and
its protocol or task), a row per harness, condition and effort, a column per model, each square
successes/scored, the rate and its Wilson 95 % interval; a cell of several agents a square per agent
(FILE@AGENT). Only cells on the board, and those that claim one crossing with another (a copied
run folder), marked: neither is compared. Then every pair that differs in exactly one of harness, model,
condition, effort, by the exact McNemar test over the units both scored, Holm-adjusted over all the
pairs printed.
  --json   {"cells": [...], "comparisons": [...]} as runners/FORMATS.md describes`;

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
  // Cells that claim one crossing are off the board: each is shown, marked, never one for the other.
  const rows = grid.rows.map((row, r) => [row, ...grid.columns.map((_, c) => grid.at(r, c).map((cell) => `${square(cell)}${cell.board === 'on' ? '' : ' (claimed twice)'}`).join(' | ') || '-')]);
  io.out(table([downOf('model').join(' · ').toUpperCase(), ...grid.columns], rows, [false, ...grid.columns.map(() => true)]));
  const byPath = new Map(cells.map((c) => [c.path, c]));
  const real = comparisons.filter((c) => byPath.has(c.a) && c.p_adjusted < SIGNIFICANT);
  for (const c of real) {
    const [better, worse] = c.only_a > c.only_b ? [c.a, c.b] : [c.b, c.a];
    const label = (path: string) => (byPath.get(path) as CellSummary).labels[c.field] ?? '?';
    io.out(printable(`  ${c.field} ${label(better)} beats ${label(worse)} (${better} vs ${worse}): ${Math.max(c.only_a, c.only_b)} to ${Math.min(c.only_a, c.only_b)} discordant, p = ${formatP(c.p_value)}, Holm-adjusted ${formatP(c.p_adjusted)}${c.left_out ? `, ${counted(c.left_out, 'episode')} on one side only left out` : ''}`));
  }
  if (!real.length) io.out(`  no difference survives Holm's correction (${counted(comparisons.filter((c) => byPath.has(c.a)).length, 'one-field comparison')})`);
  io.out('');
}

export async function board(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, 'accept-new-host-key': { type: 'boolean', default: false } },
  });
  if (positionals.length === 0) throw new UsageError(`name at least one runs root\n\n${BOARD_HELP}`);
  return withPlaces({ acceptNewHostKey: values['accept-new-host-key'] }, async (places) => {
    const reader = new BoardReader(places.contextOf, places.pool, values.json);
    places.pool.unitsAhead = true;
    // Compared as soon as every root's rows are read, while they are priced and checked for copies.
    const early: CellSummary[] = [];
    let rooted = 0;
    const listed = await listCellsAt(places, positionals, (rows) => {
      append(early, rows);
      if (++rooted === positionals.length) reader.prefetch(early);
    });
    for (const p of listed.problems) io.err(problemLine(p));
    // A collection of several agents is a row per agent, as its board lays it out and compares it.
    const cells = boardRows(listed.cells.filter((c) => c.board !== null));
    // Compared in a read worker while the cells are written.
    if (values.json) {
      await writeBoardJson(io, cells, reader.json(cells));
      return 0;
    }
    printBoards(positionals, cells, comparisonsOf(await reader.table(cells)), io);
    return 0;
  });
}

function printBoards(roots: string[], cells: CellSummary[], comparisons: BoardComparison[], io: Io): void {
  const boards = new Map<string, CellSummary[]>();
  for (const cell of cells) if ((cell.board === 'on' || cell.rivals.length) && cell.boardName) boards.set(cell.boardName, [...(boards.get(cell.boardName) ?? []), cell]);
  if (boards.size === 0) io.out(`No cell of ${roots.join(', ')} is on a board.`);
  for (const [name, on] of [...boards].sort(([a], [b]) => a.localeCompare(b))) printBoard(name, on, comparisons, io);
  const off = cells.filter((c) => c.board !== 'on');
  if (off.length) io.out(['Not on the board:', ...off.map((c) => printable(`  ${c.name} (${c.board}): ${c.board_reasons.join('; ')}`))].join('\n'));
}
