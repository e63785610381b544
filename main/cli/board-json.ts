// `board --json`: {"cells": [...], "comparisons": [...]} as runners/FORMATS.md pins it, a cell or a comparison
// a line: the cells written here, the comparisons as the read worker comparing them wrote them
// (main/comparisons-json.ts), handed on as they come.
import { frontierPoint, paretoByPath } from '../../shared/frontier';
import { wilson95 } from '../../shared/stats';
import type { CellSummary } from '../../shared/model';
import { JsonBytes } from '../comparisons-json';
import type { ComparedJson } from '../board';
import { cellJson } from './cell-json';
import type { Io } from './io';
import { terminalJson } from '../../shared/json';
import { nextTurn, ROWS_A_TURN } from '../concurrency';

/** A cell as board --json prints it: as in status, with its labels, counts and interval (assigned: spreading 10,000 rows took 0.25 s). */
function boardCell(cell: CellSummary, pareto: boolean | null) {
  const { scored, successes } = cell.episodes;
  return Object.assign(cellJson(cell), cell.labels, { scored, successes, ci95: wilson95(successes, scored), cost_per_unit: frontierPoint(cell)?.cost ?? null, pareto });
}

/** Writes `board --json`: the cells now, the comparisons as `compared` has them. */
export async function writeBoardJson(io: Io, cells: CellSummary[], compared: Promise<ComparedJson>): Promise<void> {
  // Awaited once the cells are out: a failure meanwhile is not left unhandled.
  compared.catch(() => undefined);
  const out = new JsonBytes((bytes) => io.write(bytes));
  const pareto = paretoByPath(cells);
  out.text('{\n  "cells": [');
  for (let i = 0; i < cells.length; i++) {
    // The comparisons' bytes come in between turns.
    if (i > 0 && i % ROWS_A_TURN === 0) await nextTurn();
    out.text(`${i === 0 ? '\n' : ',\n'}    ${terminalJson(boardCell(cells[i] as CellSummary, pareto.get((cells[i] as CellSummary).path) ?? null))}`);
  }
  out.text(`${cells.length ? '\n  ' : ''}],\n  "comparisons": [`);
  out.flush();
  const { bytes, table } = await compared;
  bytes.drainTo((piece) => io.write(piece));
  // The table comes after the last of its bytes.
  const count = (await table).a.length;
  out.text(`${count ? '\n  ' : ''}]\n}\n`);
  out.flush();
}
