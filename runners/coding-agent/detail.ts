import type { EpisodeRow, VramSample } from '../../shared/cell-detail';
import { CellReading } from '../common/cell';
import { bool, num, obj, str, timestampMs } from '../common/values';
import type { DetailRead, EventLog, ReadContext } from '../types';
import { unitOf } from './score';
import { RUN_JSON, SUMMARY_JSON } from './files';

export async function readVram(r: CellReading, file: string): Promise<VramSample[]> {
  return (await r.jsonl(file)).flatMap(({ value }) => {
    const t = timestampMs(value.t);
    const used = num(value.used_mib);
    return t === null || used === null ? [] : [{ t, gpu: num(value.gpu) ?? 0, usedMib: used, totalMib: num(value.total_mib) }];
  });
}

export async function codingAgentDetail(dir: string, ctx: ReadContext): Promise<DetailRead> {
  const r = new CellReading(dir, ctx);
  const run = (await r.json('run.json', RUN_JSON)) ?? {};
  const summary = (await r.json('summary.json', SUMMARY_JSON)) ?? {};
  const protocol = obj(run.protocol);
  const ended = obj(summary.episodes);
  const rows: EpisodeRow[] = Object.entries(ended).map(([id, raw]) => {
    const e = obj(raw);
    const unit = unitOf(id, { status: str(e.status) ?? 'unknown', success: bool(e.success), engaged: bool(e.engaged) });
    return {
      id, status: unit.status, success: unit.success, scored: unit.scored, toolCalls: num(e.tool_calls), actions: num(e.actions),
      wallS: num(e.wall_s), t: null, note: str(e.error), hasEvents: true,
    };
  });
  for (const entry of await r.list('episodes')) {
    const id = String(Number(entry.name));
    if (entry.kind !== 'dir' || !/^\d+$/.test(entry.name) || id in ended) continue;
    rows.push({ id, status: 'running', success: null, scored: false, toolCalls: null, actions: null, wallS: null, t: null, note: null, hasEvents: true });
  }
  rows.sort((a, b) => Number(a.id) - Number(b.id));
  return {
    episodes: rows,
    versions: [],
    vram: await readVram(r, 'vram.jsonl'),
    startedAt: timestampMs(run.started_at),
    episodeBudget: { turns: num(protocol.max_turns), actions: num(protocol.max_actions), timeoutS: num(protocol.timeout_s) },
    frameSources: [],
    logStream: null,
    otherBudgets: [],
    problems: r.problems,
  };
}

export async function codingAgentEventLogs(dir: string, ctx: ReadContext): Promise<EventLog[]> {
  const entries = (await ctx.fs.list(`${dir}/episodes`)) ?? [];
  return entries
    .filter((e) => e.kind === 'dir' && /^\d+$/.test(e.name))
    .sort((a, b) => Number(a.name) - Number(b.name))
    .map((e) => ({ stream: String(Number(e.name)), file: `episodes/${e.name}/trajectory.jsonl`, eventName: (v) => (typeof v.ev === 'string' ? v.ev : 'event') }));
}
