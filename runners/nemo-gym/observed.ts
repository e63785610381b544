// What a NeMo Gym harness observed of one rollout, read as turns: ng_trajectory (TrajectoryRecord, the merged
// evidence: invocations, turns, model calls, tool calls) and ng_agent_observations (AgentObservationBundle:
// the same records, and the only place of sandboxes and context compactions), as NeMo Gym's own models in
// rollout_observability.py define them. Each value is read loosely: a wrong type is absent, never a throw.
import type { Observed, ObservedGap, ObservedInvocation, ObservedModelCall, ObservedSandbox, ObservedStep } from '../../shared/cell-detail';
import { largest } from '../../shared/arrays';
import { arr, bool, num, obj, str } from '../common/values';

/** Each gap code NeMo Gym's producers write, as what could not be observed. */
const GAP_MEANINGS: Record<string, string> = {
  agent_transcript_unavailable: "the agent's transcript",
  compaction_model_call_join_failed: "a context compaction's model calls (joining them failed)",
  compaction_model_call_match_ambiguous: "a context compaction's model call (several captured calls match)",
  compaction_model_call_reference_unavailable: 'which model calls a context compaction used',
  compaction_outcome_unavailable: 'whether a context compaction succeeded',
  compaction_timestamp_missing: 'when a context compaction happened',
  cyclic_subagent_parent: "a subagent's parent (the parents named form a cycle)",
  model_call_ownership_unavailable: 'which invocation made a captured model call',
  model_call_reference_ambiguous: 'a model call an invocation names (several captured calls match)',
  model_call_reference_conflict: 'a model call two invocations both name',
  model_call_reference_unmatched: 'a model call an invocation names (no captured call matches)',
  model_response_id_missing: "a model response's id",
  multimodal_history_redacted: "the model calls' payloads (multimodal history redacted)",
  producer_trajectory_identity_mismatch: "the producer's own task and rollout ids (they differ from the collection's)",
  subagent_parent_unavailable: "a subagent's parent invocation",
  tool_result_missing: "a tool call's result",
  tool_start_missing: 'when a tool call started',
  tool_start_timestamp_missing: 'when a tool call started',
  tool_timing_invalid: "a tool call's timing (it ends before it starts)",
  trajectory_projection_failed: 'the trajectory (building it failed)',
  verify_failed: "the verifier's outcome (verifying failed)",
};

export const gapMeaning = (code: string) => GAP_MEANINGS[code] ?? code.replaceAll('_', ' ');

/** A free-form value (question, answer, output) as text. */
function text(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  const parts = arr(value).map((part) => str(obj(part).text) ?? str(part));
  if (parts.length && parts.every((p) => p !== null)) return parts.join('\n');
  return JSON.stringify(value, null, 2);
}

function gapOf(raw: unknown): ObservedGap {
  const gap = obj(raw);
  const code = str(gap.code) ?? str(raw) ?? JSON.stringify(raw);
  return { code, meaning: gapMeaning(code), invocation: str(gap.invocation_id), detail: str(gap.detail) };
}

function modelCallOf(raw: Record<string, unknown>): ObservedModelCall {
  const meta = obj(raw.response_metadata);
  const tokens = obj(raw.token_stats);
  return {
    id: str(raw.model_call_id),
    responseId: str(meta.response_id) ?? str(raw.response_id),
    model: str(meta.model),
    durationMs: num(raw.duration_ms),
    ttftMs: num(meta.latency_ttft_ms),
    finishReason: str(meta.finish_reason),
    status: str(meta.response_status),
    statusCode: num(meta.status_code),
    errorCategory: str(meta.error_category),
    tokens: { prompt: num(tokens.prompt_tokens), completion: num(tokens.completion_tokens), reasoning: num(tokens.reasoning_tokens), total: num(tokens.total_tokens), cached: num(tokens.cached_tokens) },
  };
}

function sandboxOf(raw: Record<string, unknown>): ObservedSandbox {
  return {
    role: str(raw.role) ?? 'unknown',
    provider: str(raw.provider),
    id: str(raw.sandbox_id),
    outcome: str(raw.outcome) ?? 'unknown',
    exitCode: num(raw.exit_code),
    wallS: num(raw.wall_time_s),
    cpuS: num(raw.cpu_time_s),
    peakMib: num(raw.peak_memory_mib),
    errorType: str(raw.error_type),
  };
}

/** A step before its time on the rollout's axis is known: the epoch seconds it started at. */
type Timed = { at: number | null; end: number | null; step: ObservedStep; invocation: string };

/** The rollout's observations; null where the row has neither member. */
export function observedOf(row: Record<string, unknown>): Observed | null {
  if (!('ng_trajectory' in row) && !('ng_agent_observations' in row)) return null;
  const trajectory = 'ng_trajectory' in row ? obj(row.ng_trajectory) : null;
  const bundle = obj(row.ng_agent_observations);
  const records = arr(bundle.records).map(obj);
  const ofKind = (kind: string) => records.filter((r) => r.kind === kind);
  // The trajectory merges every source's invocations, model and tool calls; sandboxes and compactions are only the bundle's.
  const invocationsRaw = (trajectory ? arr(trajectory.invocations) : ofKind('agent_invocation')).map(obj);
  const toolsRaw = (trajectory ? arr(trajectory.tool_calls) : ofKind('tool_call')).map(obj);
  const turnsRaw = trajectory ? arr(trajectory.turns).map(obj) : [];
  const calls = trajectory ? arr(trajectory.model_calls).map(obj) : [];

  const timed: Timed[] = [];
  const add = (invocation: string | null, at: number | null, durationMs: number | null, step: ObservedStep, end: number | null = null) =>
    timed.push({ invocation: invocation ?? '', at, end: end ?? (at !== null && durationMs !== null ? at + durationMs / 1000 : at), step });

  // A turn before the calls of its time: it is what they answer.
  for (const turn of turnsRaw) {
    add(str(turn.invocation_id), num(turn.timestamp), null, {
      kind: 'turn', atS: null, turnNo: num(turn.turn_no) ?? 0, question: text(turn.question), answer: text(turn.answer), reasoning: text(turn.reasoning_content), resolved: bool(turn.resolved), stepCount: num(turn.step_count),
    });
  }
  // A model call is shown once, under the first invocation that names it (by its id, else its response id).
  const byId = new Map<string, Record<string, unknown>>();
  const byResponse = new Map<string, Record<string, unknown>>();
  for (const call of calls) {
    const id = str(call.model_call_id);
    const response = str(obj(call.response_metadata).response_id);
    if (id && !byId.has(id)) byId.set(id, call);
    if (response && !byResponse.has(response)) byResponse.set(response, call);
  }
  const owned = new Set<Record<string, unknown>>();
  // An invocation's own references first, then its turns' (a turn is of one invocation).
  const referrers = [...invocationsRaw, ...turnsRaw];
  for (const invocation of referrers) {
    for (const ref of arr(invocation.model_calls).map(obj)) {
      const id = str(ref.model_call_id);
      const response = str(ref.response_id);
      const call = (id ? byId.get(id) : undefined) ?? (response ? byResponse.get(response) : undefined);
      if (call && owned.has(call)) continue;
      // A turn's reference to a call no capture holds adds nothing its invocation's own would not.
      if (!call && !invocationsRaw.includes(invocation)) continue;
      if (call) owned.add(call);
      const found = call ?? { model_call_id: id, response_id: response };
      add(str(invocation.invocation_id), num(found.started_at), num(found.duration_ms), { kind: 'model', atS: null, call: modelCallOf(found) }, num(found.completed_at));
    }
  }
  for (const tool of toolsRaw) {
    const durationMs = num(tool.duration_ms);
    const completed = num(tool.completed_at);
    const started = num(tool.started_at) ?? (completed !== null && durationMs !== null ? completed - durationMs / 1000 : null);
    add(str(tool.invocation_id), started, durationMs, {
      kind: 'tool', atS: null, callId: str(tool.tool_call_id) ?? '?', name: str(tool.tool_name), status: str(tool.status) ?? 'unknown', durationMs, timing: str(tool.timing_source), errorType: str(tool.error_type), sandbox: str(tool.sandbox_id), output: text(tool.output),
    }, completed);
  }
  for (const compaction of ofKind('context_compaction')) {
    add(str(compaction.invocation_id), num(compaction.observed_at), null, {
      kind: 'compaction', atS: null, trigger: str(compaction.trigger), tokensBefore: num(compaction.tokens_before), tokensAfter: num(compaction.tokens_after), outcome: str(compaction.outcome) ?? 'unknown', summary: str(compaction.summary),
    });
  }

  const starts = timed.flatMap((t) => (t.at === null ? [] : [t.at]));
  const origin = starts.length ? -largest(starts.map((at) => -at)) : null;
  const ends = timed.flatMap((t) => (t.end === null ? [] : [t.end]));
  const spanS = origin === null || !ends.length ? null : largest(ends) - origin;
  const steps = new Map<string, ObservedStep[]>();
  // Timed steps in time order, the untimed after them in the order given (a stable sort).
  const ordered = timed.map((t, i) => ({ t, i })).sort((a, b) => (a.t.at ?? Infinity) - (b.t.at ?? Infinity) || a.i - b.i);
  for (const { t } of ordered) {
    const step = { ...t.step, atS: origin === null || t.at === null ? null : t.at - origin };
    steps.set(t.invocation, [...(steps.get(t.invocation) ?? []), step]);
  }

  // Invocations named only by their steps are listed too; a parent before its children, however deep.
  const declared = new Map(invocationsRaw.map((raw) => [str(raw.invocation_id) ?? '', raw]));
  for (const id of steps.keys()) if (id && !declared.has(id)) declared.set(id, { invocation_id: id });
  const children = new Map<string, string[]>();
  const roots: string[] = [];
  for (const [id, raw] of declared) {
    const parent = str(raw.parent_invocation_id);
    if (parent !== null && declared.has(parent) && parent !== id) children.set(parent, [...(children.get(parent) ?? []), id]);
    else roots.push(id);
  }
  const invocations: ObservedInvocation[] = [];
  const placed = new Set<string>();
  const place = (id: string, depth: number) => {
    if (placed.has(id)) return;
    placed.add(id);
    const raw = declared.get(id) ?? {};
    invocations.push({ id, depth, parent: str(raw.parent_invocation_id), spawnedBy: str(raw.spawned_by_tool_call_id), status: str(raw.status) ?? 'unknown', durationMs: num(raw.duration_ms), errorType: str(raw.error_type), steps: steps.get(id) ?? [] });
    for (const child of children.get(id) ?? []) place(child, depth + 1);
  };
  roots.forEach((id) => place(id, 0));
  // Parents that name each other (a cycle NeMo Gym's own model refuses) have no root: each listed at the top.
  for (const id of declared.keys()) place(id, 0);
  const orphans = steps.get('');
  if (orphans && !declared.has('')) invocations.push({ id: '', depth: 0, parent: null, spawnedBy: null, status: 'unknown', durationMs: null, errorType: null, steps: orphans });

  const gaps = new Map<string, ObservedGap>();
  for (const raw of [...arr(trajectory?.gaps), ...arr(bundle.gaps)]) {
    const gap = gapOf(raw);
    gaps.set(JSON.stringify([gap.code, gap.invocation, gap.detail]), gap);
  }
  return {
    source: trajectory ? 'ng_trajectory' : 'ng_agent_observations',
    invocations,
    unowned: calls.filter((call) => !owned.has(call)).map(modelCallOf),
    sandboxes: ofKind('sandbox').map(sandboxOf),
    gaps: [...gaps.values()],
    spanS,
    json: JSON.stringify(Object.fromEntries(['ng_trajectory', 'ng_agent_observations'].filter((k) => k in row).map((k) => [k, row[k]])), null, 2),
  };
}
