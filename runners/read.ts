import { problem, type CellSummary, type FormatName } from '../shared/model';
import { baseCell, NO_LABELS } from './common/cell';
import { ADAPTERS } from './index';
import { capabilitiesOf, type CellRead, type ReadContext } from './types';

/** Reads a cell with its format's adapter; whatever goes wrong becomes a problem on the cell, never a throw. */
export async function readCell(dir: string, format: FormatName, ctx: ReadContext, options: { detail?: boolean } = {}): Promise<CellRead> {
  const unreadable = (message: string): CellRead => {
    const cell = baseCell(dir, format, ctx);
    cell.problems = [problem(dir, message)];
    return { cell, labels: NO_LABELS, changedAt: null, units: [] };
  };
  if ((await ctx.fs.stat(dir))?.kind !== 'dir') return unreadable('cell folder no longer exists');
  try {
    return await ADAPTERS[format].read(dir, ctx, options);
  } catch (error) {
    return unreadable(`could not read this cell: ${(error as Error).message}`);
  }
}

export function summaryOf(read: CellRead, root: string): CellSummary {
  return {
    ...read.cell,
    root,
    labels: read.labels,
    changedAt: read.changedAt,
    evaluatedVersions: read.evaluatedVersions ?? [],
    vramPeakMib: read.vramPeakMib ?? null,
    policyVersions: read.policyVersions ?? [],
    capabilities: capabilitiesOf(ADAPTERS[read.cell.format]),
  };
}
