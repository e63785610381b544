// Policy versions as a capability: frames per version and seed, a version's outcome on a seed, its units.
import { CellReading } from '../common/cell';
import { arr, num, obj } from '../common/values';
import type { VersionsCapability, VersionSource } from '../types';
import { versionUnits } from './evaluation';
import { EVAL_SUMMARY_JSON } from './files';

const FOLDER: Record<VersionSource, string> = { dev: 'dev', replay: 'replays' };

export const bigymVersions: VersionsCapability = {
  framesFolder: (source, version, seed) => `${FOLDER[source]}/${version}/${seed}`,

  async seedsWithFrames(dir, version, ctx) {
    const seeds = new Map<string, VersionSource>();
    const r = new CellReading(dir, ctx);
    // A replay (an evaluation seed) wins over a development episode on the same seed.
    for (const source of ['dev', 'replay'] as const) {
      for (const entry of await r.list(`${FOLDER[source]}/${version}`)) if (entry.kind === 'dir') seeds.set(entry.name, source);
    }
    return seeds;
  },

  async outcome(dir, version, seed, ctx) {
    const r = new CellReading(dir, ctx);
    const summary = await r.json(`eval/${version}/summary.json`, EVAL_SUMMARY_JSON);
    const evaluated = arr(summary?.episodes).map(obj).find((e) => String(num(e.seed)) === seed);
    if (evaluated) return arr(summary?.rejected).length === 0 && evaluated.success === true ? 'success' : 'failure';
    const progress = (await r.jsonl(`eval/${version}/progress.jsonl`)).find((l) => String(num(l.value.seed)) === seed);
    const ledger = (await r.jsonl('ledger.jsonl')).filter((l) => l.value.version === version && String(num(l.value.seed)) === seed).at(-1);
    const line = progress ?? ledger;
    return line ? (line.value.success === true ? 'success' : 'failure') : 'unknown';
  },

  units: versionUnits,
};
