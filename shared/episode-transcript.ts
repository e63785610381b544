// A coding-agent episode's event stream read like a transcript (the same items a NeMo Gym rollout or a
// Harbor trial gives): messages, each call beside its result, frames where a result names one, the end.
import type { StreamEvent, TranscriptItem } from './cell-detail';

/** The fields of an event that say what it carries, not where it is. */
function payload(event: StreamEvent): Record<string, unknown> {
  const { ev: _ev, type: _type, seq: _seq, t: _t, call_id: _call, name: _name, episode: _episode, ...rest } = event.fields;
  return rest;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** How an episode ended, in words: its status, outcome and counts (`episode_end`, with `evaluate` before it). */
function outcomeText(end: StreamEvent, evaluated: StreamEvent | undefined): string {
  const f = end.fields;
  const success = evaluated?.fields.success;
  const parts = [
    `ended ${String(f.status ?? '?')}`,
    success === true ? 'success' : success === false ? 'failure' : null,
    f.engaged === false ? 'the agent made no tool call' : null,
    typeof f.tool_calls === 'number' ? `${f.tool_calls} tool calls` : null,
    typeof f.actions === 'number' ? `${f.actions} actions` : null,
    typeof f.wall_s === 'number' ? `${f.wall_s} s` : null,
    typeof f.error === 'string' ? `error: ${f.error}` : null,
    evaluated?.fields.metrics ? `metrics ${JSON.stringify(evaluated.fields.metrics)}` : null,
  ];
  return parts.filter(Boolean).join(' · ');
}

/** The event types a transcript is made of (eventsToTranscript reads each, and no other). */
const TRANSCRIBED = new Set(['episode_start', 'agent_message', 'tool_call', 'tool_result', 'throttle', 'episode_end']);

/** Whether a stream reads as a conversation: some event of it is one a transcript is made of. */
export const hasConversation = (events: readonly StreamEvent[]) => events.some((e) => TRANSCRIBED.has(e.ev));

export function eventsToTranscript(events: StreamEvent[]): TranscriptItem[] {
  const start = events.find((e) => e.t !== null)?.t ?? null;
  const place = (e: StreamEvent) => ({ seq: e.seq, ...(e.t !== null ? { epochS: e.t, ...(start !== null ? { offsetS: e.t - start } : {}) } : {}) });
  const results = new Map<string, StreamEvent>();
  for (const e of events) if (e.ev === 'tool_result' && typeof e.fields.call_id === 'string') results.set(e.fields.call_id, e);
  const paired = new Set<StreamEvent>();
  const evaluated = events.findLast((e) => e.ev === 'evaluate');
  const items: TranscriptItem[] = [];
  for (const e of events) {
    const f = e.fields;
    if (e.ev === 'episode_start') items.push({ kind: 'input', role: 'task', text: typeof f.instruction === 'string' ? f.instruction : json(payload(e)), ...place(e) });
    else if (e.ev === 'agent_message') items.push({ kind: 'message', role: 'agent', text: typeof f.text === 'string' ? f.text : json(payload(e)), ...place(e) });
    else if (e.ev === 'tool_call') {
      const result = typeof f.call_id === 'string' ? results.get(f.call_id) : undefined;
      if (result) paired.add(result);
      const frame = typeof result?.fields.frame === 'string' ? result.fields.frame : undefined;
      const took = result && result.t !== null && e.t !== null ? { durationS: Math.max(0, result.t - e.t) } : {};
      items.push({
        kind: 'call',
        name: typeof f.name === 'string' ? f.name : '?',
        callId: typeof f.call_id === 'string' ? f.call_id : null,
        arguments: json(f.args ?? {}),
        output: result ? json(payload(result)) : null,
        ...place(e),
        ...took,
        ...(frame ? { frame } : {}),
      });
    } else if (e.ev === 'tool_result' && !paired.has(e)) items.push({ kind: 'other', type: 'tool result of no call', json: json(payload(e)), ...place(e) });
    else if (e.ev === 'throttle') items.push({ kind: 'other', type: 'throttle', json: `paused ${String(f.wait_s ?? '?')} s by the model's service (attempt ${String(f.attempt ?? '?')})`, ...place(e), ...(typeof f.wait_s === 'number' && f.wait_s >= 0 ? { durationS: f.wait_s } : {}) });
    else if (e.ev === 'episode_end') items.push({ kind: 'outcome', text: outcomeText(e, evaluated), ...place(e) });
  }
  return items;
}
