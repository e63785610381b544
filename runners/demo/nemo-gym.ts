// A NeMo Gym rollout collection as `ng_collect_rollouts` writes one (formats.md section 5): materialized
// inputs first, rollouts appended as each finishes (not in task order), failed attempts in a sidecar,
// the aggregate metrics at the end. Two agents on the same arithmetic tasks, so they pair.
import { join } from 'node:path';
import type { Pace } from './pace';
import { prng } from './prng';

export const NEMO_FOLDER = 'nemo_math';
export const NEMO_STEM = 'rollouts';
export const NEMO_AGENTS = ['demo_codex_agent', 'demo_claude_code_agent'] as const;
const TASKS = 12;
const REPEATS = 2;
/** How likely each agent is to get a task right. */
const SKILL: Record<(typeof NEMO_AGENTS)[number], number> = { demo_codex_agent: 0.55, demo_claude_code_agent: 0.75 };

const question = (task: number) => {
  const a = 17 + task * 7;
  const b = 3 + ((task * 5) % 11);
  return { text: `What is ${a} * ${b}? Answer with the number only.`, answer: a * b };
};

/** `endS`: when the rollout ended, on the demo's clock. */
function rollout(task: number, repeat: number, agent: (typeof NEMO_AGENTS)[number], random: () => number, endS: number) {
  const { text, answer } = question(task);
  const right = random() < SKILL[agent];
  const given = right ? answer : answer + 1 + Math.floor(random() * 9);
  const call = `call_${task}_${repeat}`;
  const input = [{ role: 'user', content: text }];
  const inputTokens = 180 + Math.floor(random() * 40);
  const outputTokens = 40 + Math.floor(random() * 30);
  return {
    responses_create_params: { input, tools: [{ type: 'function', name: 'python', description: 'Run Python code', parameters: { type: 'object', properties: { code: { type: 'string' } } } }] },
    response: {
      id: `resp_${agent}_${task}_${repeat}`,
      model: 'demo/agent-model',
      object: 'response',
      status: 'completed',
      output: [
        { type: 'reasoning', id: `rs_${task}`, summary: [{ type: 'summary_text', text: 'Multiply the two numbers; check with Python.' }] },
        { type: 'function_call', call_id: call, name: 'python', arguments: JSON.stringify({ code: `print(${text.match(/\d+ \* \d+/)?.[0]})` }) },
        { type: 'function_call_output', call_id: call, output: String(right ? answer : given) },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: String(given) }] },
      ],
      usage: { input_tokens: inputTokens, input_tokens_details: { cached_tokens: 128 }, output_tokens: outputTokens, output_tokens_details: { reasoning_tokens: 12 }, total_tokens: inputTokens + outputTokens },
    },
    reward: right ? 1.0 : 0.0,
    expected_answer: String(answer),
    extracted_answer: String(given),
    turns_used: 2,
    _ng_task_index: task,
    _ng_rollout_index: repeat,
    agent_ref: { type: 'responses_api_agents', name: agent },
    ...(agent === 'demo_claude_code_agent' ? observations(task, repeat, call, inputTokens, outputTokens, right ? answer : given, endS) : {}),
  };
}

/**
 * What Claude Code's harness observes of a rollout (rollout_observability.py): the trajectory (its
 * invocation, two model calls with their token stats, the tool call with its timing) and the bundle's
 * sandbox; turns it cannot observe (NeMo Gym's capability matrix), and one response id it could not see.
 */
function observations(task: number, repeat: number, call: string, inputTokens: number, outputTokens: number, output: number, endS: number) {
  const invocation = `session-${task}-${repeat}`;
  const start = endS - 4;
  const modelCall = (n: number, at: number, ms: number, prompt: number, completion: number, finish: string) => ({
    model_call_id: `mc-${task}-${repeat}-${n}`,
    started_at: start + at,
    completed_at: start + at + ms / 1000,
    duration_ms: ms,
    response_metadata: { response_id: `msg-${task}-${repeat}-${n}`, model: 'demo/agent-model', dialect: 'messages', status_code: 200, response_status: 'completed', finish_reason: finish, latency_ttft_ms: Math.round(ms / 4) },
    token_stats: { prompt_tokens: prompt, completion_tokens: completion, reasoning_tokens: null, total_tokens: prompt + completion, cached_tokens: 128 },
  });
  const calls = [modelCall(1, 0, 1400, inputTokens - 60, outputTokens - 20, 'tool_use'), modelCall(2, 2.1, 900, 60, 20, 'end_turn')];
  const tool = { invocation_id: invocation, tool_call_id: call, sandbox_id: `sbx-${task}-${repeat}`, tool_name: 'python', started_at: start + 1.5, completed_at: start + 2.05, duration_ms: 550, timing_source: 'artifact', status: 'completed', output: String(output) };
  const gap = { code: 'model_response_id_missing', invocation_id: invocation, detail: 'the tool result message' };
  return {
    ng_trajectory: {
      schema_version: '1.0',
      task_id: String(task),
      rollout_id: `${task}-${repeat}`,
      invocations: [{ invocation_id: invocation, status: 'completed', duration_ms: 3100, model_calls: calls.map((c) => ({ model_call_id: c.model_call_id })), conversation: [] }],
      turns: [],
      model_calls: calls,
      tool_calls: [tool],
      gaps: [gap],
    },
    ng_agent_observations: {
      source: 'claude_code',
      records: [{ kind: 'sandbox', role: 'agent', provider: 'demo', sandbox_id: `sbx-${task}-${repeat}`, outcome: 'completed', exit_code: 0, wall_time_s: 3.4, cpu_time_s: 0.8, peak_memory_mib: 96 + task, resource_usage_source: 'cgroup' }],
      gaps: [gap],
    },
  };
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

export async function writeNemoCollection(root: string, pace: Pace, name = NEMO_FOLDER): Promise<void> {
  const folder = join(root, name);
  const file = (suffix: string) => join(folder, `${NEMO_STEM}${suffix}`);
  const random = prng(4004);
  const units = NEMO_AGENTS.flatMap((agent) => Array.from({ length: TASKS * REPEATS }, (_, i) => ({ agent, task: Math.floor(i / REPEATS), repeat: i % REPEATS })));
  await pace.writeBytes(
    file('_materialized_inputs.jsonl'),
    units.map((u) => `${JSON.stringify({ responses_create_params: { input: [{ role: 'user', content: question(u.task).text }] }, expected_answer: String(question(u.task).answer), agent_ref: { type: 'responses_api_agents', name: u.agent }, _ng_task_index: u.task, _ng_rollout_index: u.repeat })}\n`).join(''),
  );
  // Workers finish in no particular order (a seeded Fisher-Yates shuffle).
  const order = [...units];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] as (typeof order)[number], order[i] as (typeof order)[number]];
  }
  const rows: ReturnType<typeof rollout>[] = [];
  for (const [i, unit] of order.entries()) {
    await pace.wait(1.5);
    if (i % 9 === 4) {
      // A model error retried once: a failure row, then the rollout.
      await pace.appendLine(file('_failures.jsonl'), { _ng_task_index: unit.task, _ng_rollout_index: unit.repeat, _ng_attempt_index: 0, agent_ref: { name: unit.agent }, _ng_failure_class: 'model_error', _ng_failure_message: 'upstream 503' });
      await pace.wait(1);
    }
    if (i === order.length - 3) {
      await pace.appendLine(file('_failures.jsonl'), { _ng_task_index: unit.task, _ng_rollout_index: unit.repeat, _ng_attempt_index: 1, agent_ref: { name: unit.agent }, _ng_failure_class: 'sandbox_timeout', _ng_failure_terminal: true });
      continue;
    }
    const row = rollout(unit.task, unit.repeat, unit.agent, random, pace.now());
    rows.push(row);
    await pace.appendLine(file('.jsonl'), row);
  }
  await pace.wait(1);
  const aggregate = NEMO_AGENTS.map((agent) => {
    const mine = rows.filter((r) => r.agent_ref.name === agent);
    return {
      agent_ref: { name: agent },
      agent_metrics: {
        'mean/reward': mean(mine.map((r) => r.reward)),
        'mean/input_tokens': mean(mine.map((r) => r.response.usage.input_tokens)),
        'mean/output_tokens': mean(mine.map((r) => r.response.usage.output_tokens)),
      },
    };
  });
  await pace.writeJson(file('_aggregate_metrics.json'), aggregate);
}
