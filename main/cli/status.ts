import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { truthOf } from '../launch/run-states';
import { RunManager } from '../launch/runs';
import { defaultConfigDir } from '../paths';
import { stateText, type Cell } from '../../shared/model';
import { cellJson } from './cell-json';
import { stuckJson, stuckName, stuckUnits } from '../../shared/stuck';
import { listCellsAt, withPlaces } from './places';
import { outJson, UsageError, type Io } from './io';
import { printable, problemLine } from './printable';
import { percent, success, table } from './table';
import { whole } from '../../shared/counts';
import { provenanceOf } from '../../shared/provenance';
import { ADAPTERS } from '../../runners';
import { isLocal } from '../../shared/address';

export const STATUS_HELP = `cellwatch status [--json | --explain] [--accept-new-host-key] ROOT_OR_CELL...

One line per cell: a cell folder, or every cell of a runs root (to depth 3). A path may be on an SSH
host: ssh://ALIAS/abs/path or ALIAS:/abs/path, ALIAS as in ~/.ssh/config; an unknown host key is
refused unless --accept-new-host-key.
  --json     {"cells": [...]} as runners/FORMATS.md describes
  --explain  each cell's figures, each with where it comes from (the files and the rule), as the window's
             tooltips say them`;

/** A budget as the window's header says it: past its plan, how far past (a problem of the cell), not a share. */
function budget(cell: Cell): string {
  const { used, total, unit } = cell.budget;
  if (total === null) return `${whole(used)} ${unit}`;
  const spent = used > total ? `${whole(used - total)} past its plan` : percent(total ? used / total : null, 0);
  return `${whole(used)}/${whole(total)} ${unit} (${spent})`;
}

export async function status(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, explain: { type: 'boolean', default: false }, 'accept-new-host-key': { type: 'boolean', default: false } },
  });
  if (positionals.length === 0) throw new UsageError(`name at least one runs root or cell\n\n${STATUS_HELP}`);
  if (values.json && values.explain) throw new UsageError(`--json or --explain, not both\n\n${STATUS_HELP}`);
  const listed = await withPlaces({ acceptNewHostKey: values['accept-new-host-key'] }, (places) => listCellsAt(places, positionals));
  for (const p of listed.problems) io.err(problemLine(p));
  // As in the app: what the process of a run launched from it says beats what the cell's files suggest.
  const runs = await new RunManager(join(defaultConfigDir(), 'launched.json')).states();
  const cells = listed.cells.map((row) => (isLocal(row.host) ? { ...row, state: truthOf(row.state, runs.get(row.path)) } : row));
  if (values.json) {
    const now = Date.now();
    outJson(io, { cells: cells.map((c) => ({ ...cellJson(c), stuck: stuckJson(c.running, now) })) }, 2);
    return 0;
  }
  if (cells.length === 0) {
    io.out(`No cells in ${positionals.join(', ')}.`);
    return 0;
  }
  if (values.explain) {
    for (const cell of cells) {
      const lines = provenanceOf(cell, ADAPTERS[cell.format].capabilities.board?.rule ?? null);
      const rows = lines.map((line) => [line.figure, line.value, line.from]);
      io.out([printable(`${cell.name} (${cell.format}, ${cell.path})`), table(['FIGURE', 'VALUE', 'FROM'], rows, [false, false, false]), ''].join('\n'));
    }
    return 0;
  }
  const rows = cells.map((c) => [
    c.name,
    c.format,
    c.board ?? '',
    stateText(c),
    budget(c),
    `${c.episodes.ended}/${c.episodes.planned ?? '?'}`,
    // A rate that is not successes of scored (a rejected policy scores 0 on every seed) is shown as it is, with no interval.
    c.success_rate !== null && c.episodes.scored && Math.abs(c.success_rate - c.episodes.successes / c.episodes.scored) < 1e-9 ? success(c.episodes.successes, c.episodes.scored) : percent(c.success_rate),
    String(c.problems.length),
  ]);
  io.out(table(['NAME', 'FORMAT', 'BOARD', 'STATE', 'BUDGET', 'EPISODES', 'SUCCESS [95% CI]', 'PROBLEMS'], rows, [false, false, false, false, true, true, true, true]));
  const off = cells.filter((c) => c.board_reasons.length);
  if (off.length) io.out(['', 'Not on the board:', ...off.map((c) => printable(`  ${c.name}: ${c.board_reasons.join('; ')}`))].join('\n'));
  const now = Date.now();
  const stuck = cells.flatMap((c) => stuckUnits(c.running, now).map((s) => printable(`  ${c.name} ${stuckName(s, c.capabilities.unit)}: ${s.why}`)));
  if (stuck.length) io.out(['', 'Stuck or looping:', ...stuck].join('\n'));
  for (const cell of cells) for (const p of cell.problems) io.err(problemLine(p, `${cell.name}: `));
  return 0;
}
