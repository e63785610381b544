import type { EpisodeRow } from '../../shared/cell-detail';
import type { CellReading } from '../common/cell';
import type { JsonObject } from '../common/json';
import { num, obj, str, timestampMs } from '../common/values';
import { vramSample } from '../common/vram';
import type { DetailRead, EventLog, ReadContext } from '../types';
import { nonNegative } from '../common/integrity';
import type { EpisodeUnit } from '../../shared/model';

/** An episode's number, as its folder of events is named (zero-padded) and its summary keys it. */
const NUMBERED = /^\d+$/;

/** What the cell view shows, from the files the summary read already parsed. */
export async function codingAgentDetail(r: CellReading, run: JsonObject, summary: JsonObject, units: readonly EpisodeUnit[], episodeDirs: string[]): Promise<DetailRead> {
  const protocol = obj(run.protocol);
  const ended = obj(summary.episodes);
  const rows: EpisodeRow[] = units.map((unit) => {
    const e = obj(ended[unit.id]);
    return {
      id: unit.id, status: unit.status, success: unit.success, scored: unit.scored, toolCalls: nonNegative(e.tool_calls), actions: nonNegative(e.actions),
      // An episode's events are in its numbered folder: one its summary names otherwise (-1, e1) has none to open.
      wallS: nonNegative(e.wall_s), t: null, note: str(e.error), hasEvents: NUMBERED.test(unit.id),
    };
  });
  for (const name of episodeDirs) {
    const id = String(Number(name));
    if (!NUMBERED.test(name) || id in ended) continue;
    rows.push({ id, status: 'running', success: null, scored: false, toolCalls: null, actions: null, wallS: null, t: null, note: null, hasEvents: true });
  }
  rows.sort((a, b) => Number(a.id) - Number(b.id));
  return {
    episodes: rows,
    versions: [],
    vram: (await r.jsonl('vram.jsonl')).flatMap(({ value }) => vramSample(value) ?? []),
    startedAt: timestampMs(run.started_at),
    episodeBudget: { turns: num(protocol.max_turns), actions: num(protocol.max_actions), timeoutS: num(protocol.timeout_s) },
    frameSources: [],
    logStream: null,
    otherBudgets: [],
    tables: [],
    programs: [],
  };
}

export async function codingAgentEventLogs(dir: string, ctx: ReadContext): Promise<EventLog[]> {
  const entries = (await ctx.fs.list(`${dir}/episodes`)) ?? [];
  return entries
    .filter((e) => e.kind === 'dir' && NUMBERED.test(e.name))
    .sort((a, b) => Number(a.name) - Number(b.name))
    .map((e) => ({ stream: String(Number(e.name)), file: `episodes/${e.name}/trajectory.jsonl`, eventName: (v) => (typeof v.ev === 'string' ? v.ev : 'event') }));
}
