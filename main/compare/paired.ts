import type { CellState, EpisodeUnit, FormatName } from '../../shared/model';
import { pairUnits, type PairedSide, type PairedTest } from '../../shared/mcnemar';
import { versionUnits } from '../../runners/bigym-agent/adapter';
import { readTargetCell, withTarget, type Target, type TargetOptions } from '../cells';

const LIVE: ReadonlySet<CellState> = new Set(['running', 'evaluating', 'draining']);

export interface Side extends PairedSide {
  format: FormatName;
  units: EpisodeUnit[];
}

export class CompareError extends Error {
  override name = 'CompareError';
}

/** Splits `path@v003` into the cell and the version; a path without `@vNNN` is the cell itself. */
export function splitAddress(address: string): { cell: string; version: string | null } {
  const match = /^(.*)@(v\d{3})$/.exec(address);
  return match ? { cell: match[1] as string, version: match[2] as string } : { cell: address, version: null };
}

export async function readSide(address: string, options: TargetOptions): Promise<Side> {
  const { cell, version } = splitAddress(address);
  return withTarget(cell, options, async (target) => readTargetSide(address, version, target));
}

async function readTargetSide(address: string, version: string | null, target: Target): Promise<Side> {
  const read = await readTargetCell(target);
  const live = LIVE.has(read.cell.state);
  if (version === null) return { id: read.cell.id, name: read.cell.name, format: read.cell.format, units: read.units, live };
  if (read.cell.format !== 'bigym-agent') throw new CompareError(`${address}: @${version} names a policy version, which only bigym-agent cells have`);
  const units = await versionUnits(read.cell.path, version, target.ctx);
  if (!units) throw new CompareError(`${address}: ${version} has no evaluation summary (eval/${version}/summary.json) yet`);
  return { id: `${read.cell.id}@${version}`, name: `${read.cell.name}@${version}`, format: read.cell.format, units, live: false };
}

const shown = ({ id, name, format, live }: Side): PairedSide => ({ id, name, format, live });

/** The paired test of two cells of one format, or of two policy versions. */
export async function compareSides(addressA: string, addressB: string, options: TargetOptions = {}): Promise<PairedTest> {
  const [a, b] = await Promise.all([readSide(addressA, options), readSide(addressB, options)]);
  if (a.format !== b.format) throw new CompareError(`${a.name} is ${a.format} and ${b.name} is ${b.format}: compare two cells of one format`);
  const pairing = pairUnits(a.units, b.units, a.live || b.live);
  return pairing.ok
    ? { ok: true, a: shown(a), b: shown(b), table: pairing.table }
    : { ok: false, a: shown(a), b: shown(b), only_a: pairing.only_a, only_b: pairing.only_b };
}
