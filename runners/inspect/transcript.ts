// A sample of an Inspect log read as a transcript: its messages in order, each tool call with the tool
// message that answers it (by call id), then its scores with their answers and explanations.
// `attachment://` references are resolved from the sample's attachments.
import { basename } from 'node:path';
import type { ModelCallSent, Transcript, TranscriptItem, TranscriptPlace } from '../../shared/cell-detail';
import { parseJson } from '../../shared/json';
import { arr, num, obj, str, timestampMs } from '../common/values';
import type { ReadContext } from '../types';
import { MAX_MEMBER_BYTES } from './log';
import { pickedScorer } from './outcome';
import { readMember, zipDirectory } from './zip';

const ATTACHMENT = /^attachment:\/\/([A-Za-z0-9]+)$/;

/** The value with every `attachment://<hash>` string replaced by the attachment it names. */
function resolved(value: unknown, attachments: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    const ref = ATTACHMENT.exec(value);
    return ref && typeof attachments[ref[1] as string] === 'string' ? attachments[ref[1] as string] : value;
  }
  if (Array.isArray(value)) return value.map((v) => resolved(v, attachments));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolved(v, attachments)]));
  return value;
}

/** A message's content as text, and its reasoning apart: a string, or a list of content parts. */
function contentOf(content: unknown): { text: string; reasoning: string[] } {
  if (typeof content === 'string') return { text: content, reasoning: [] };
  const text: string[] = [];
  const reasoning: string[] = [];
  for (const part of arr(content).map(obj)) {
    if (part.type === 'text') text.push(str(part.text) ?? '');
    else if (part.type === 'reasoning') reasoning.push(str(part.reasoning) ?? (part.redacted ? '(redacted)' : ''));
    else text.push(`[${str(part.type) ?? 'content'}]`);
  }
  return { text: text.join('\n'), reasoning };
}

const pretty = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** What a tool message says: its content, and its error in words. */
function toolSaid(message: Record<string, unknown>): string {
  const error = obj(message.error);
  return [contentOf(message.content).text, str(error.message) ? `error (${str(error.type) ?? 'tool'}): ${str(error.message)}` : null].filter(Boolean).join('\n');
}

/**
 * The messages a model event was sent: its `input`, or in a log v3 its `input_refs` (`[start, end)` ranges)
 * into the sample's `message_pool`, a range past the pool's end cut there as Inspect's own reader does.
 */
function sentCount(event: Record<string, unknown>, pool: number): number {
  const input = arr(event.input);
  if (input.length || !Array.isArray(event.input_refs)) return input.length;
  return arr(event.input_refs).reduce<number>((sum, ref) => {
    const [start, end] = arr(ref).map((n) => num(n) ?? 0);
    return sum + Math.max(0, Math.min(end ?? 0, pool) - Math.max(0, start ?? 0));
  }, 0);
}

/**
 * Where the sample's events put its items on one time axis (seconds from its first event): a model call the
 * message it answered with (and what it was sent), a tool event its call (by id), the scoring its scores, its
 * start its input.
 */
function timesOf(events: Record<string, unknown>[], pool: number): { at(key: string): TranscriptPlace; sent(key: string): ModelCallSent | undefined } {
  const stamps = new Map<string, { ms: number; end: number | null }>();
  const sent = new Map<string, ModelCallSent>();
  let first: number | null = null;
  for (const e of events) {
    const ms = timestampMs(e.timestamp);
    const answer = e.event === 'model' ? str(obj(obj(arr(obj(e.output).choices)[0]).message).id) : null;
    if (answer && !sent.has(answer)) {
      const usage = obj(obj(e.output).usage);
      sent.set(answer, { messages: sentCount(e, pool), inputTokens: num(usage.input_tokens), outputTokens: num(usage.output_tokens) });
    }
    if (ms === null) continue;
    first ??= ms;
    const key = answer ?? (e.event === 'tool' ? `call ${str(e.id)}` : e.event === 'score' ? 'score' : e.event === 'sample_init' ? 'start' : null);
    // A model or tool event says when it completed: how long it took.
    if (key && !stamps.has(key)) stamps.set(key, { ms, end: timestampMs(e.completed) });
  }
  return {
    at(key) {
      const stamp = stamps.get(key);
      if (stamp === undefined || first === null) return {};
      return { offsetS: (stamp.ms - first) / 1000, epochS: stamp.ms / 1000, ...(stamp.end !== null && stamp.end >= stamp.ms ? { durationS: (stamp.end - stamp.ms) / 1000 } : {}) };
    },
    sent: (key) => sent.get(key),
  };
}

/** The sample's items: messages in order, calls with their results, then its scores, each where its event puts it in time. */
function itemsOf(sample: Record<string, unknown>, scorer: string | null): TranscriptItem[] {
  const messages = arr(sample.messages).map(obj);
  const time = timesOf(arr(sample.events).map(obj), arr(sample.message_pool).length);
  const answers = new Map<string, Record<string, unknown>>();
  for (const m of messages) if (m.role === 'tool' && str(m.tool_call_id)) answers.set(str(m.tool_call_id) as string, m);
  const paired = new Set<string>();
  const items: TranscriptItem[] = [];
  for (const m of messages) {
    const role = str(m.role) ?? 'message';
    if (role === 'tool' && paired.has(str(m.tool_call_id) ?? '')) continue;
    const { text, reasoning } = contentOf(m.content);
    for (const r of reasoning) items.push({ kind: 'reasoning', text: r });
    const input = role === 'user' && m.source === 'input';
    const when = input ? time.at('start') : time.at(str(m.id) ?? '');
    // An assistant turn that only calls tools is still a model call, on the timeline where it ran.
    const callsOnly = !text && role === 'assistant' && arr(m.tool_calls).length > 0;
    const sent = role === 'assistant' ? time.sent(str(m.id) ?? '') : undefined;
    if (text || role !== 'assistant' || callsOnly) items.push({ kind: input ? 'input' : 'message', role, text: role === 'tool' ? toolSaid(m) : callsOnly ? '(no text: it called tools)' : text, ...when, ...(sent ? { sent } : {}) });
    for (const call of arr(m.tool_calls).map(obj)) {
      const id = str(call.id);
      const answer = id ? answers.get(id) : undefined;
      if (id && answer) paired.add(id);
      const output = answer ? toolSaid(answer) : null;
      items.push({ kind: 'call', name: str(call.function) ?? 'tool', callId: id, arguments: pretty(call.arguments ?? {}), output, ...time.at(`call ${id}`) });
    }
  }
  for (const [name, score] of Object.entries(obj(sample.scores)).map(([n, s]) => [n, obj(s)] as const)) {
    const said = [str(score.answer) ? `answer ${JSON.stringify(str(score.answer))}` : null, str(score.explanation) ? `explanation: ${str(score.explanation)}` : null].filter(Boolean).join('; ');
    items.push({ kind: 'outcome', text: `${name}${name === scorer ? ' (the outcome)' : ''}: ${JSON.stringify(score.value ?? null)}${said ? ` (${said})` : ''}`, ...time.at('score') });
  }
  const error = obj(sample.error);
  if (str(error.message)) items.push({ kind: 'outcome', text: `error: ${str(error.message)}` });
  const limit = obj(sample.limit);
  if (str(limit.type)) items.push({ kind: 'outcome', text: `hit its ${str(limit.type)} limit${limit.limit !== undefined ? ` of ${JSON.stringify(limit.limit)}` : ''}` });
  return items;
}

/** The sample `<id>#<epoch>` and the log's header, from a `.eval`'s members or a JSON log's samples; null when the log has no such sample. */
async function sampleAt(path: string, unit: string, ctx: ReadContext): Promise<{ sample: Record<string, unknown>; header: Record<string, unknown> } | null> {
  const cut = unit.lastIndexOf('#');
  const [id, epoch] = [unit.slice(0, cut), unit.slice(cut + 1)];
  if (cut < 0) return null;
  const parse = (bytes: Buffer) => obj(parseJson(bytes.toString('utf8')));
  if (path.endsWith('.json')) {
    const read = await ctx.fs.readBytes(path, 0, MAX_MEMBER_BYTES);
    if (!read || read.truncated) return null;
    const log = parse(read.bytes);
    const sample = arr(log.samples).map(obj).find((s) => String(s.id) === id && String(s.epoch) === epoch);
    return sample ? { sample, header: log } : null;
  }
  const directory = await zipDirectory(ctx.fs, path);
  const member = directory.get(`samples/${id}_epoch_${epoch}.json`);
  const header = directory.get('header.json') ?? directory.get('_journal/start.json');
  if (!member) return null;
  return { sample: parse(await readMember(ctx.fs, path, member, MAX_MEMBER_BYTES)), header: header ? parse(await readMember(ctx.fs, path, header, MAX_MEMBER_BYTES)) : {} };
}

export async function readInspectTranscript(path: string, unit: string, ctx: ReadContext): Promise<Transcript | null> {
  const found = await sampleAt(path, unit, ctx);
  if (!found) return null;
  const sample = obj(resolved(found.sample, obj(found.sample.attachments)));
  // Its outcome by the scorer the cell's are (a pick the log lacks is the cell's problem to say, not the transcript's).
  const scorer = pickedScorer({ header: found.header, samples: [{ scores: obj(sample.scores) }] }, ctx, path, []);
  const output = obj(sample.output);
  return {
    unit,
    agent: str(obj(found.header.eval).model) ?? basename(path),
    items: itemsOf(sample, scorer),
    answer: str(output.completion),
    reward: scorer ? (obj(obj(sample.scores)[scorer]).value ?? null) : null,
    verdict: obj(sample.scores),
    patch: null,
    observed: null,
  };
}
