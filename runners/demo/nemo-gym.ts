// A NeMo Gym rollout collection as `ng_collect_rollouts` writes one (formats.md section 5): materialized
// inputs first, rollouts appended as each finishes (not in task order), failed attempts in a sidecar,
// the aggregate metrics at the end. Two agents on the same arithmetic tasks, so they pair.
import { join } from 'node:path';
import { appendLine, writeBytes, writeJson, type Pace } from './pace';
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

function rollout(task: number, repeat: number, agent: (typeof NEMO_AGENTS)[number], random: () => number) {
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
  };
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

export async function writeNemoCollection(root: string, pace: Pace, name = NEMO_FOLDER): Promise<void> {
  const folder = join(root, name);
  const file = (suffix: string) => join(folder, `${NEMO_STEM}${suffix}`);
  const random = prng(4004);
  const units = NEMO_AGENTS.flatMap((agent) => Array.from({ length: TASKS * REPEATS }, (_, i) => ({ agent, task: Math.floor(i / REPEATS), repeat: i % REPEATS })));
  await writeBytes(
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
      await appendLine(file('_failures.jsonl'), { _ng_task_index: unit.task, _ng_rollout_index: unit.repeat, _ng_attempt_index: 0, agent_ref: { name: unit.agent }, _ng_failure_class: 'model_error', _ng_failure_message: 'upstream 503' });
      await pace.wait(1);
    }
    if (i === order.length - 3) {
      await appendLine(file('_failures.jsonl'), { _ng_task_index: unit.task, _ng_rollout_index: unit.repeat, _ng_attempt_index: 1, agent_ref: { name: unit.agent }, _ng_failure_class: 'sandbox_timeout', _ng_failure_terminal: true });
      continue;
    }
    const row = rollout(unit.task, unit.repeat, unit.agent, random);
    rows.push(row);
    await appendLine(file('.jsonl'), row);
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
  await writeJson(file('_aggregate_metrics.json'), aggregate);
}
