// An episode of a format that logs each episode's events (coding-agent) read like a transcript, as a rollout or
// a trial is: the episode's log read whole and made into the items the window's stream makes of it.
import type { Transcript } from '../../shared/cell-detail';
import { eventsToTranscript } from '../../shared/episode-transcript';
import { parseJson } from '../../shared/json';
import type { FormatAdapter, ReadContext } from '../types';
import { obj } from './values';
import { streamEvent } from './stream-event';

/** The longest episode log read whole for its transcript. */
export const MAX_EPISODE_LOG_BYTES = 32 * 1024 * 1024;

/** The episode `unit` of the cell at `dir` as a transcript; null where the format logs no such episode. */
export async function episodeTranscript(adapter: FormatAdapter, dir: string, unit: string, ctx: ReadContext): Promise<Transcript | null> {
  const log = (await adapter.eventLogs(dir, ctx)).find((l) => l.stream === unit);
  if (!log) return null;
  const read = await ctx.fs.read(`${dir}/${log.file}`, MAX_EPISODE_LOG_BYTES);
  if (read === null) return null;
  let end = 0;
  const events = read.text.split('\n').flatMap((text, i) => {
    end += Buffer.byteLength(text) + 1;
    if (!text.trim()) return [];
    let value: unknown;
    try {
      value = parseJson(text);
    } catch {
      return [];
    }
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? [streamEvent(log, { line: i + 1, end, value: obj(value) })] : [];
  });
  const items = eventsToTranscript(events);
  if (read.truncated) items.push({ kind: 'outcome', text: `this episode's log is over the ${MAX_EPISODE_LOG_BYTES / (1024 * 1024)} MB a transcript reads whole: its first ${MAX_EPISODE_LOG_BYTES / (1024 * 1024)} MB are above` });
  const answer = items.findLast((item) => item.kind === 'message');
  return { unit, agent: null, items, answer: answer?.kind === 'message' ? answer.text : null, reward: null, verdict: {}, patch: null, observed: null };
}
