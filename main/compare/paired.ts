import { isLive, type EpisodeUnit, type FormatName } from '../../shared/model';
import { pairUnits, type PairedSide, type PairedTest } from '../../shared/mcnemar';
import { ADAPTERS, type CellRead, type ReadContext } from '../../runners';
import { readCell } from '../../runners/read';
import { CompareError } from '../../shared/errors';

export interface Side extends Omit<PairedSide, 'unit'> {
  format: FormatName;
  units: EpisodeUnit[];
}


/**
 * Splits `path@v003` (a policy version) or `path@AGENT` (one agent of a collection) into the cell and
 * the part; a path without `@...` after its last slash is the cell itself, and so is one that `isCell`
 * says is a cell: a run named for a model id holds an `@` (std_sdk_claude-sonnet-4@20250514_bare_default).
 */
export function splitAddress(address: string, isCell: (address: string) => boolean = () => false): { cell: string; version: string | null } {
  const match = isCell(address) ? null : /^(.*[^/])@([^@/]+)$/.exec(address);
  return match ? { cell: match[1] as string, version: match[2] as string } : { cell: address, version: null };
}

/** One side of a paired test: a read cell, one of its policy versions (read through `ctx`, wherever the cell lives), or one of its agents. */
export async function sideOf(read: CellRead, version: string | null, ctx: ReadContext): Promise<Side> {
  const { cell } = read;
  const live = isLive(cell.state);
  if (version === null) return { id: cell.id, name: cell.name, format: cell.format, units: read.units, live };
  const agent = read.agentUnits?.[version];
  if (agent) return { id: `${cell.id}@${version}`, name: `${cell.name}@${version}`, format: cell.format, units: agent, live };
  const versions = ADAPTERS[cell.format].capabilities.versions;
  if (!versions || !/^v\d{3}$/.test(version)) {
    const agents = Object.keys(read.agentUnits ?? {});
    throw new CompareError(`${cell.name}@${version}: ${cell.name} has no policy version or agent ${version}${agents.length ? ` (its agents: ${agents.join(', ')})` : ''}`);
  }
  const units = await versions.units(cell.path, version, ctx);
  if (!units) throw new CompareError(`${cell.name}@${version}: ${version} has no evaluation summary yet`);
  return { id: `${cell.id}@${version}`, name: `${cell.name}@${version}`, format: cell.format, units, live: false };
}

/** One side of a paired test read from its cell's files: the cell, a policy version of it, or an agent of it. */
export async function readSide(dir: string, format: FormatName, version: string | null, ctx: ReadContext): Promise<Side> {
  return sideOf(await readCell(dir, format, ctx), version, ctx);
}

const shown = ({ id, name, format, live }: Side): PairedSide => ({ id, name, format, unit: ADAPTERS[format].pairing.unit, live });

/** The paired test of two sides already read: two cells of one format, or two policy versions. */
export function compareSides(a: Side, b: Side): PairedTest {
  if (a.format !== b.format) throw new CompareError(`${a.name} is ${a.format} and ${b.name} is ${b.format}: compare two cells of one format`);
  const pairing = pairUnits(a.units, b.units, a.live || b.live);
  return pairing.ok
    ? { ok: true, a: shown(a), b: shown(b), table: pairing.table }
    : { ok: false, a: shown(a), b: shown(b), only_a: pairing.only_a, only_b: pairing.only_b };
}
