// One rollout read like a transcript: the only place a row's conversation is parsed, when the user opens it.
import type { Transcript, TranscriptItem } from '../../shared/cell-detail';
import { parseJson } from '../../shared/json';
import { arr, obj, str } from '../common/values';
import type { ReadContext } from '../types';
import { observedOf } from './observed';
import { readCollection } from './read';
import { unitOf, type NemoRow } from './row-block';
import { agentName } from './agent-name';
import { megabytes } from '../../shared/counts';

/** Message content as text: a string, or the text of its parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return arr(content)
    .map((part) => str(obj(part).text) ?? str(obj(part).refusal) ?? (obj(part).type === 'input_image' ? '[image]' : ''))
    .filter(Boolean)
    .join('\n');
}

function pretty(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

const BOOKKEEPING = new Set(['responses_create_params', 'response', 'reward', 'agent_ref', 'model_patch', 'ng_trajectory', 'ng_agent_observations']);

/** The transcript of a parsed row. */
export function transcriptOf(row: Record<string, unknown>, unit: string): Transcript {
  const items: TranscriptItem[] = [];
  const input = obj(row.responses_create_params).input;
  if (typeof input === 'string') items.push({ kind: 'input', role: 'user', text: input });
  for (const message of arr(input)) items.push({ kind: 'input', role: str(obj(message).role) ?? 'user', text: textOf(obj(message).content) });
  const outputs = arr(obj(row.response).output).map(obj);
  const outputOf = new Map(outputs.filter((o) => o.type === 'function_call_output').map((o) => [str(o.call_id), o.output]));
  let answer: string | null = null;
  for (const item of outputs) {
    if (item.type === 'reasoning') items.push({ kind: 'reasoning', text: arr(item.summary).map((s) => str(obj(s).text) ?? '').join('\n') || textOf(item.content) });
    else if (item.type === 'message') {
      answer = textOf(item.content);
      items.push({ kind: 'message', role: str(item.role) ?? 'assistant', text: answer });
    } else if (item.type === 'function_call') {
      const callId = str(item.call_id);
      const output = outputOf.get(callId);
      items.push({ kind: 'call', name: str(item.name) ?? '?', callId, arguments: pretty(str(item.arguments) ?? ''), output: output === undefined ? null : typeof output === 'string' ? output : JSON.stringify(output, null, 2) });
    } else if (item.type !== 'function_call_output' || !outputOf.has(str(item.call_id))) items.push({ kind: 'other', type: str(item.type) ?? '?', json: JSON.stringify(item, null, 2) });
  }
  return {
    unit,
    agent: agentName(row.agent_ref),
    items,
    answer,
    reward: row.reward ?? null,
    verdict: Object.fromEntries(Object.entries(row).filter(([key]) => !BOOKKEEPING.has(key))),
    patch: str(row.model_patch),
    observed: observedOf(row),
  };
}

/** The longest row opened whole: a whole SWE conversation can be tens of megabytes; past this its parse would hold serve's memory. */
export const MAX_ROW_BYTES = 32 * 1024 * 1024;

/** A row too large to open whole: what its summary holds (the score, the environment's fields) and why the rest is not shown. */
function tooLarge(row: NemoRow, unit: string, bytes: number): Transcript {
  const why = `this rollout's row is ${megabytes(bytes)}, over the ${megabytes(MAX_ROW_BYTES)} a transcript opens whole: too large to show whole; its score and the environment's fields are below`;
  return { unit, agent: row.agent, items: [{ kind: 'outcome', text: why }], answer: null, reward: row.reward ?? null, verdict: row.fields, patch: null, observed: null };
}

/** The transcript of one rollout of the collection at `path` (`<task>#<rollout>`, or `<agent>/<task>#<rollout>`); null when it has none such. */
export async function readTranscript(path: string, unit: string, ctx: ReadContext): Promise<Transcript | null> {
  const { collection } = await readCollection(path, ctx);
  const slash = unit.lastIndexOf('/');
  const [agent, id] = slash < 0 ? [null, unit] : [unit.slice(0, slash), unit.slice(slash + 1)];
  const { rollouts } = collection;
  let k = 0;
  while (k < rollouts.length && (unitOf({ task: rollouts.task(k), repeat: rollouts.repeat(k) }) !== id || (agent !== null && rollouts.agent(k) !== agent))) k++;
  if (k === rollouts.length) return null;
  const row = rollouts.row(k);
  // The row ends where the next one starts (or the file does): its size is known before a byte of it is read.
  let end = (await ctx.fs.stat(path))?.size ?? row.offset;
  for (let other = 0; other < rollouts.length; other++) {
    const offset = rollouts.offset(other);
    if (offset > row.offset && offset < end) end = offset;
  }
  if (end - row.offset > MAX_ROW_BYTES) return tooLarge(row, unit, end - row.offset);
  const read = await ctx.fs.readFrom(path, row.offset, MAX_ROW_BYTES);
  const line = read?.text.split('\n', 1)[0];
  if (!line) return null;
  return transcriptOf(obj(parseJson(line)), unit);
}
