import type { Comparison, ComparedSlot } from '../../shared/cell-detail';
import { isLive, type CellSummary } from '../../shared/model';
import { naturalOrder } from '../../shared/order';
import { parseSlots, type SlotSpec } from '../../shared/slots';
import { ADAPTERS } from '../../runners';
import type { VersionsCapability } from '../../runners/types';
import type { ContextOf } from '../place/context';
import { listFrames } from '../frames';
import { SlotError } from '../../shared/errors';


const versionsOf = (cell: CellSummary): VersionsCapability => ADAPTERS[cell.format].capabilities.versions as VersionsCapability;

/** The one cell with policy versions a session names: by name, else by a path substring naming exactly one. */
export function findSession(session: string, cells: CellSummary[]): CellSummary {
  const versioned = cells.filter((c) => c.capabilities.versions);
  const byName = versioned.filter((c) => c.name === session);
  const matches = byName.length ? byName : versioned.filter((c) => c.path.includes(session));
  if (matches.length === 1) return matches[0] as CellSummary;
  const list = (cs: CellSummary[]) => cs.map((c) => c.path).join(', ');
  if (matches.length === 0) throw new SlotError(`no cell with policy versions is named or found by ${JSON.stringify(session)}; cells: ${list(versioned) || 'none'}`);
  throw new SlotError(`${JSON.stringify(session)} is ambiguous: it names ${list(matches)}`);
}

export function slotVersion(spec: SlotSpec, cell: CellSummary): string {
  const versions = cell.policyVersions;
  if (versions.length === 0) throw new SlotError(`${spec.text}: ${cell.name} has no policy version (void)`);
  if (spec.version.kind === 'last') return versions.at(-1) as string;
  if (spec.version.kind === 'submission') {
    if (isLive(cell.state)) throw new SlotError(`${spec.text}: ${cell.name} is still running, so it has no submission yet; use last`);
    return versions.at(-1) as string;
  }
  if (!versions.includes(spec.version.version)) throw new SlotError(`${spec.text}: ${cell.name} has no ${spec.version.version}; it has ${versions.join(', ')}`);
  return spec.version.version;
}

/** Resolves slots against the listed cells and gathers each one's frames and outcome on the seed, wherever each cell lives. */
export async function compareSlots(text: string, seed: string | undefined, cells: CellSummary[], contextOf: ContextOf): Promise<Comparison> {
  const specs = parseSlots(text);
  const resolved = specs.map((spec) => {
    const cell = findSession(spec.session, cells);
    return { spec, cell, version: slotVersion(spec, cell), ctx: contextOf(cell).read() };
  });
  const available = await Promise.all(resolved.map((r) => versionsOf(r.cell).seedsWithFrames(r.cell.path, r.version, r.ctx)));
  const seeds = [...new Set(available.flatMap((a) => [...a.keys()]))].sort(naturalOrder);
  const common = seeds.filter((s) => available.every((a) => a.has(s)));
  // A seed every slot has frames for, unless one was chosen: a slot without frames for it says so in its own tile.
  const chosen = seed ?? common[0] ?? seeds[0];
  if (chosen === undefined) throw new SlotError(`no slot has frames for any seed (replays/ or dev/ of its version)`);
  // Each slot's outcome and frames are read side by side: six slots on a host cost one round trip's wait, not twelve.
  const slots = await Promise.all(
    resolved.map(async ({ spec, cell, version, ctx }, i): Promise<ComparedSlot> => {
      const source = available[i]?.get(chosen) ?? null;
      const [outcome, frames] = await Promise.all([
        versionsOf(cell).outcome(cell.path, version, chosen, ctx),
        source ? listFrames(cell, { kind: source, version, seed: chosen }, ctx.fs) : { fps: 25, cameras: [] },
      ]);
      return { slot: spec.text, cellId: cell.id, session: cell.name, version, source, seedsWithFrames: [...(available[i]?.keys() ?? [])].sort(naturalOrder), outcome, frames };
    }),
  );
  return { seed: chosen, seeds, common, slots };
}
