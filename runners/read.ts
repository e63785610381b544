import type { CellSummary, FormatName } from '../shared/model';
import { baseCell, NO_LABELS } from './common/cell';
import { ADAPTERS } from './index';
import type { CellRead, ReadContext } from './types';

/** Reads a cell with its format's adapter; whatever goes wrong becomes a problem on the cell, never a throw. */
export async function readCell(dir: string, format: FormatName, ctx: ReadContext): Promise<CellRead> {
  const unreadable = (message: string): CellRead => {
    const cell = baseCell(dir, format, ctx);
    cell.problems = [{ file: dir, message }];
    return { cell, labels: NO_LABELS, changedAt: null, units: [] };
  };
  if ((await ctx.fs.stat(dir))?.kind !== 'dir') return unreadable('cell folder no longer exists');
  try {
    return await ADAPTERS[format].read(dir, ctx);
  } catch (error) {
    return unreadable(`could not read this cell: ${(error as Error).message}`);
  }
}

export function summaryOf(read: CellRead, root: string): CellSummary {
  return { ...read.cell, root, labels: read.labels, changedAt: read.changedAt, evaluatedVersions: read.evaluatedVersions ?? [], vramPeakMib: read.vramPeakMib ?? null, policyVersions: read.policyVersions ?? [] };
}
