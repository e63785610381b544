import { isLive, type EpisodeUnit, type FormatName } from '../../shared/model';
import { pairUnits, type PairedSide, type PairedTest } from '../../shared/mcnemar';
import { ADAPTERS, type CellRead, type ReadContext } from '../../runners';
import { readCell } from '../../runners/read';
import { CompareError, NotFoundError } from '../../shared/errors';

export interface Side extends Omit<PairedSide, 'unit'> {
  format: FormatName;
  units: EpisodeUnit[];
}


/** A cell, and what after an `@` names a part of it (a policy version `v003`, an agent of a collection); null: the cell itself. */
export interface Address {
  cell: string;
  version: string | null;
}

/**
 * The ways to read `address`, in turn: the whole address (a run named for a model id holds an `@`:
 * std_sdk_claude-sonnet-4@20250514_bare_default), then the address split at each `@` from the last to the
 * first (an agent's name may hold `@` and `/`). The first whose cell is one is meant.
 */
export function addressReadings(address: string): Address[] {
  const readings: Address[] = [{ cell: address, version: null }];
  for (let at = address.lastIndexOf('@'); at > 0; at = address.lastIndexOf('@', at - 1)) {
    if (address[at - 1] !== '/' && at < address.length - 1) readings.push({ cell: address.slice(0, at), version: address.slice(at + 1) });
  }
  return readings;
}

/**
 * The reading of `address` whose cell `isCell` says is one; where none is, the one a missing cell is
 * named by: split at its last `@` where no `/` follows it, else the whole address.
 */
export function splitAddress(address: string, isCell: (address: string) => boolean = () => false): Address {
  const readings = addressReadings(address);
  return readings.find((r) => isCell(r.cell)) ?? missingOf(readings);
}

function missingOf(readings: Address[]): Address {
  const last = readings[1];
  return last && !last.version?.includes('/') ? last : (readings[0] as Address);
}

/**
 * One side of a paired test at `address`, found by `find` (a cell's side, or NotFoundError): the first
 * reading of the address whose cell is there; where none is, the error of the one a missing cell is named
 * by (splitAddress).
 */
export async function sideAt(address: string, find: (reading: Address) => Promise<Side>): Promise<Side> {
  const readings = addressReadings(address);
  const missing = missingOf(readings);
  let error: unknown;
  for (const reading of readings) {
    try {
      return await find(reading);
    } catch (failed) {
      if (!(failed instanceof NotFoundError)) throw failed;
      if (reading === missing) error = failed;
    }
  }
  throw error;
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
