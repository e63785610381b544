// A trial's ATIF trajectory (`<trial>/agent/trajectory.json`, schema ATIF-v1.x) read like a transcript,
// when the user opens the trial: each step's message, reasoning and tool calls beside their results.
import type { Transcript, TranscriptItem, TranscriptPlace } from '../../shared/cell-detail';
import { join } from 'node:path';
import type { JsonObject } from '../common/json';
import { arr, num, obj, str, timestampMs } from '../common/values';
import type { ReadContext } from '../types';

export const ATIF_FILE = 'agent/trajectory.json';

const text = (value: unknown) => (typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value, null, 2));

/**
 * Where a step puts its items on the trajectory's one time axis: its time from the first step's; an agent's
 * step is its model's answer, which took from the step before it to this one.
 */
function placeOf(stepMs: number | null, firstMs: number | null, beforeMs: number | null): TranscriptPlace {
  if (stepMs === null || firstMs === null) return {};
  return { offsetS: (stepMs - firstMs) / 1000, epochS: stepMs / 1000, ...(beforeMs !== null && stepMs >= beforeMs ? { durationS: (stepMs - beforeMs) / 1000 } : {}) };
}

/** The transcript of an ATIF trajectory; `result` is the trial's result.json (its reward), when it ended. */
export function atifTranscript(trajectory: JsonObject, unit: string, result: JsonObject | null): Transcript {
  const items: TranscriptItem[] = [];
  const steps = arr(trajectory.steps).map(obj);
  const firstMs = timestampMs(steps[0]?.timestamp);
  let answer: string | null = null;
  let beforeMs: number | null = null;
  for (const step of steps) {
    const source = str(step.source) ?? 'agent';
    const stepMs = timestampMs(step.timestamp);
    const at = placeOf(stepMs, firstMs, source === 'agent' ? beforeMs : null);
    const when = at.offsetS === undefined ? {} : { offsetS: at.offsetS, epochS: at.epochS };
    beforeMs = stepMs ?? beforeMs;
    const metrics = obj(step.metrics);
    const tokens = num(metrics.prompt_tokens) !== null ? ` · ${num(metrics.prompt_tokens)} in, ${num(metrics.completion_tokens) ?? 0} out` : '';
    const role = `${source === 'agent' ? 'assistant' : source} (step ${num(step.step_id) ?? '?'}${tokens})`;
    if (source !== 'agent') {
      items.push({ kind: 'input', role, text: text(step.message), ...when });
      continue;
    }
    if (str(step.reasoning_content)) items.push({ kind: 'reasoning', text: str(step.reasoning_content) as string, ...when });
    // The model's answer: its text, or (a turn that only calls tools) that it called them, on the timeline where it ran.
    const said = text(step.message);
    if (said) answer = said;
    const calls = arr(step.tool_calls).map(obj);
    if (said || calls.length) items.push({ kind: 'message', role, text: said || '(no text: it called tools)', ...at });
    const results = new Map(arr(obj(step.observation).results).map(obj).map((r) => [str(r.source_call_id), r.content]));
    for (const call of calls) {
      const callId = str(call.tool_call_id);
      const output = results.get(callId);
      results.delete(callId);
      items.push({ kind: 'call', name: str(call.function_name) ?? '?', callId, arguments: text(call.arguments), output: output === undefined ? null : text(output), ...when });
    }
    // Results of no call of this step (an environment's own observation).
    for (const [, content] of results) items.push({ kind: 'other', type: 'observation', json: text(content), ...when });
  }
  const agent = obj(trajectory.agent);
  const rewards = obj(obj(result?.verifier_result).rewards);
  return {
    unit,
    agent: [str(agent.name), str(agent.version), str(agent.model_name)].filter(Boolean).join(' ') || null,
    items,
    answer,
    reward: rewards.reward ?? null,
    verdict: { ...obj(trajectory.final_metrics), ...(result ? { exception: obj(result.exception_info).exception_type ?? null } : {}) },
    patch: null,
    observed: null,
  };
}

/** The transcript of the trial folder `unit` of the job at `path`; null when it has no ATIF trajectory. */
export async function readAtifTranscript(path: string, unit: string, ctx: ReadContext): Promise<Transcript | null> {
  if (unit.includes('/') || unit.startsWith('.')) return null;
  const trajectory = await ctx.json.read(join(path, unit, ATIF_FILE), `${unit}/${ATIF_FILE}`);
  if (!trajectory.value) {
    if (trajectory.problem) throw new Error(trajectory.problem.message);
    return null;
  }
  const result = await ctx.json.read(join(path, unit, 'result.json'), `${unit}/result.json`);
  return atifTranscript(trajectory.value, unit, result.value);
}
