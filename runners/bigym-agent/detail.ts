import type { EpisodeRow, FrameSource, VersionRow } from '../../shared/cell-detail';
import { CellReading } from '../common/cell';
import type { JsonObject } from '../common/json';
import type { JsonlRecord } from '../common/jsonl';
import { arr, bool, num, obj, str, timestampMs } from '../common/values';
import { isRecent, type DetailRead, type EventLog, type ReadContext } from '../types';
import { policyFile, type Evaluation } from './evaluation';

async function frameSources(r: CellReading, kind: 'dev' | 'replay'): Promise<FrameSource[]> {
  const folder = kind === 'dev' ? 'dev' : 'replays';
  const sources: FrameSource[] = [];
  for (const version of await r.list(folder)) {
    if (version.kind !== 'dir') continue;
    for (const seed of await r.list(`${folder}/${version.name}`)) {
      if (seed.kind === 'dir') sources.push({ kind, version: version.name, seed: seed.name });
    }
  }
  return sources;
}

/** What the cell view shows, from the files the summary read already parsed. */
export async function bigymDetail(r: CellReading, run: JsonObject, ledger: readonly JsonlRecord[], versions: string[], evaluations: Evaluation[]): Promise<DetailRead> {
  const episodes: EpisodeRow[] = ledger.map(({ line, value }) => ({
    id: String(line),
    status: 'ended',
    success: bool(value.success),
    scored: true,
    toolCalls: null,
    actions: num(value.steps),
    wallS: null,
    t: timestampMs(value.t),
    note: `${str(value.version) ?? '?'} seed ${num(value.seed) ?? '?'}${value.fell === true ? ' · fell' : ''}`,
    hasEvents: false,
    group: str(value.version) ?? '?',
    facts: [
      { label: 'ledger line', value: String(line) },
      { label: 'version', value: str(value.version) ?? '?' },
      { label: 'seed', value: String(num(value.seed) ?? '?') },
      { label: 'steps', value: String(num(value.steps) ?? '?') },
      { label: 'outcome', value: value.success === true ? 'success' : value.fell === true ? 'failure: fell' : 'failure' },
    ],
  }));

  const running = run.status === 'running';
  const rows: VersionRow[] = [];
  for (const version of versions) {
    const evaluation = evaluations.find((e) => e.version === version) ?? { version, summary: null, progressLines: 0, changedAt: null };
    const mine = ledger.filter((l) => l.value.version === version);
    const summary = evaluation.summary;
    const moving = isRecent(evaluation.changedAt, r.ctx.now);
    rows.push({
      version,
      devEpisodes: mine.length,
      devSuccesses: mine.filter((l) => l.value.success === true).length,
      evalState: summary ? 'scored' : evaluation.progressLines === 0 ? 'none' : moving || running ? 'evaluating' : 'eval_failed',
      evalDone: summary ? evaluation.scored.units.length : evaluation.progressLines,
      evalTotal: num(summary?.n_episodes),
      evalRate: summary ? evaluation.scored.rate : null,
      rejected: summary ? arr(summary.rejected).length > 0 : false,
      spotCheckFailed: obj(summary?.spot_check).identical === false,
    });
  }
  return {
    episodes,
    versions: rows,
    vram: [],
    startedAt: timestampMs(run.started_at),
    episodeBudget: null,
    frameSources: [...(await frameSources(r, 'replay')), ...(await frameSources(r, 'dev'))],
    logStream: 'ledger',
    otherBudgets: [],
    tables: [],
    programs: versions.map((version) => ({ id: version, files: [{ name: 'policy.py', path: policyFile(version) }], note: null })),
  };
}

export async function bigymEventLogs(dir: string, ctx: ReadContext): Promise<EventLog[]> {
  const r = new CellReading(dir, ctx);
  const evals = (await r.list('eval')).filter((e) => e.kind === 'dir').map((e) => e.name).sort();
  return [
    { stream: 'ledger', file: 'ledger.jsonl', eventName: () => 'dev_episode' },
    ...evals.map((v) => ({ stream: `eval ${v}`, file: `eval/${v}/progress.jsonl`, eventName: () => 'eval_episode' })),
  ];
}
