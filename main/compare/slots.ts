import { join } from 'node:path';
import type { Comparison, ComparedSlot } from '../../shared/cell-detail';
import type { CellSummary } from '../../shared/model';
import { parseSlots, type SlotSpec } from '../../shared/slots';
import { CellReading } from '../../runners/common/cell';
import { arr, num, obj } from '../../runners/common/values';
import type { ReadContext } from '../../runners';
import { listFrames } from '../frames';

export class SlotError extends Error {
  override name = 'SlotError';
}

const LIVE = new Set(['running', 'evaluating']);

/** The one bigym cell a session names: by name, else by a path substring naming exactly one. */
export function findSession(session: string, cells: CellSummary[]): CellSummary {
  const bigym = cells.filter((c) => c.format === 'bigym-agent');
  const byName = bigym.filter((c) => c.name === session);
  const matches = byName.length ? byName : bigym.filter((c) => c.path.includes(session));
  if (matches.length === 1) return matches[0] as CellSummary;
  const list = (cs: CellSummary[]) => cs.map((c) => c.path).join(', ');
  if (matches.length === 0) throw new SlotError(`no bigym-agent cell is named or found by ${JSON.stringify(session)}; cells: ${list(bigym) || 'none'}`);
  throw new SlotError(`${JSON.stringify(session)} is ambiguous: it names ${list(matches)}`);
}

export function slotVersion(spec: SlotSpec, cell: CellSummary): string {
  const versions = cell.policyVersions;
  if (versions.length === 0) throw new SlotError(`${spec.text}: ${cell.name} has no policy version (void)`);
  if (spec.version.kind === 'last') return versions.at(-1) as string;
  if (spec.version.kind === 'submission') {
    if (LIVE.has(cell.state)) throw new SlotError(`${spec.text}: ${cell.name} is still running, so it has no submission yet; use last`);
    return versions.at(-1) as string;
  }
  if (!versions.includes(spec.version.version)) throw new SlotError(`${spec.text}: ${cell.name} has no ${spec.version.version}; it has ${versions.join(', ')}`);
  return spec.version.version;
}

async function seedsWithFrames(cell: CellSummary, version: string, ctx: ReadContext): Promise<Map<string, 'replay' | 'dev'>> {
  const seeds = new Map<string, 'replay' | 'dev'>();
  for (const [folder, source] of [['dev', 'dev'], ['replays', 'replay']] as const) {
    for (const entry of (await ctx.fs.list(join(cell.path, folder, version))) ?? []) if (entry.kind === 'dir') seeds.set(entry.name, source);
  }
  return seeds;
}

/** The version's outcome on a seed: its evaluation, else its development episode on the ledger. */
async function outcome(cell: CellSummary, version: string, seed: string, ctx: ReadContext): Promise<ComparedSlot['outcome']> {
  const r = new CellReading(cell.path, ctx);
  const summary = await r.json(`eval/${version}/summary.json`);
  const evaluated = arr(summary?.episodes).map(obj).find((e) => String(num(e.seed)) === seed);
  if (evaluated) return arr(summary?.rejected).length === 0 && evaluated.success === true ? 'success' : 'failure';
  const progress = (await r.jsonl(`eval/${version}/progress.jsonl`)).find((l) => String(num(l.value.seed)) === seed);
  const ledger = (await r.jsonl('ledger.jsonl')).filter((l) => l.value.version === version && String(num(l.value.seed)) === seed).at(-1);
  const line = progress ?? ledger;
  return line ? (line.value.success === true ? 'success' : 'failure') : 'unknown';
}

/** Resolves slots against the listed cells and gathers each one's frames and outcome on the seed. */
export async function compareSlots(text: string, seed: string | undefined, cells: CellSummary[], ctx: ReadContext): Promise<Comparison> {
  const specs = parseSlots(text);
  const resolved = specs.map((spec) => {
    const cell = findSession(spec.session, cells);
    return { spec, cell, version: slotVersion(spec, cell) };
  });
  const available = await Promise.all(resolved.map((r) => seedsWithFrames(r.cell, r.version, ctx)));
  const common = [...(available[0]?.keys() ?? [])].filter((s) => available.every((a) => a.has(s))).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const chosen = seed ?? common[0];
  if (chosen === undefined) throw new SlotError(`the slots share no seed with frames (replays/ or dev/ of each version)`);
  const slots: ComparedSlot[] = [];
  for (const [i, { spec, cell, version }] of resolved.entries()) {
    const source = available[i]?.get(chosen);
    if (!source) {
      const has = [...(available[i]?.keys() ?? [])].join(', ') || 'none';
      throw new SlotError(`${spec.text}: ${cell.name} ${version} has no frames for seed ${chosen} (replays/${version}/${chosen} or dev/${version}/${chosen}); seeds with frames: ${has}`);
    }
    slots.push({
      slot: spec.text,
      cellId: cell.id,
      session: cell.name,
      version,
      source,
      outcome: await outcome(cell, version, chosen, ctx),
      frames: await listFrames(cell, { kind: source, version, seed: chosen }, ctx.fs),
    });
  }
  return { seed: chosen, seeds: common, slots };
}
