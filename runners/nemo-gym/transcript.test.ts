import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { context, jsonl, tempDir } from '../testing';
import { MAX_ROW_BYTES, readTranscript, transcriptOf } from './transcript';

const REAL = join(import.meta.dirname, 'fixtures/responses_api_agents/claude_code_agent/data/example_math_rollouts.jsonl');

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.remove());

describe('a rollout read like a transcript', () => {
  it('opens a real rollout by its unit: the input, each call paired with its output, the answer, then the reward and verdict', async () => {
    const path = join(tmp.path, 'math.jsonl');
    copyFileSync(REAL, path);
    const row = readFileSync(REAL, 'utf8').split('\n').map((l) => l && JSON.parse(l)).find((r) => r && r._ng_task_index === 4);
    const t = await readTranscript(path, '4#0', context());
    expect(t?.unit).toBe('4#0');
    expect(t?.agent).toBe('math_with_judge_claude_code_agent');
    expect(t?.items[0]).toEqual({ kind: 'input', role: 'user', text: expect.stringContaining(row.responses_create_params.input[0].content.slice(0, 40)) });
    const calls = t?.items.filter((i) => i.kind === 'call') ?? [];
    const [call] = row.response.output.filter((o: { type: string }) => o.type === 'function_call');
    const [output] = row.response.output.filter((o: { type: string }) => o.type === 'function_call_output');
    expect(calls[0]).toEqual({ kind: 'call', name: call.name, callId: call.call_id, arguments: JSON.stringify(JSON.parse(call.arguments), null, 2), output: output.output });
    expect(t?.answer).toBe(row.response.output.at(-1).content[0].text);
    expect(t?.reward).toBe(1);
    expect(t?.verdict).toMatchObject({ expected_answer: row.expected_answer, extracted_answer: row.extracted_answer, _ng_task_index: 4 });
    expect(await readTranscript(path, '9#0', context())).toBeNull();
  });

  it('opens a row over the cap as too large to show whole, with its score and fields, without reading it; the row after it opens whole', async () => {
    const path = join(tmp.path, 'big.jsonl');
    const row = (task: number, text: string) => ({ responses_create_params: { input: 'q' }, response: { output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }] }, reward: task, resolved: task === 1, _ng_task_index: task, _ng_rollout_index: 0 });
    writeFileSync(path, jsonl([row(0, 'small'), row(1, 'x'.repeat(MAX_ROW_BYTES + 1)), row(2, 'after')]));
    const big = await readTranscript(path, '1#0', context());
    expect(big?.items).toEqual([{ kind: 'outcome', text: expect.stringMatching(/^this rollout's row is 32 MB, over the 32 MB a transcript opens whole: too large to show whole/) }]);
    expect(big?.reward).toBe(1);
    expect(big?.verdict).toMatchObject({ resolved: true });
    expect((await readTranscript(path, '2#0', context()))?.answer).toBe('after');
  });

  it('shows reasoning, a SWE patch, unpaired outputs and the observation gaps as such', async () => {
    const row = {
      responses_create_params: { input: 'fix the bug' },
      response: { output: [{ type: 'reasoning', summary: [{ type: 'summary_text', text: 'look at utils.py' }] }, { type: 'function_call', name: 'bash', call_id: 'c1', arguments: 'ls -la' }, { type: 'web_search_call', id: 'w' }, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] }] },
      reward: 1,
      resolved: true,
      model_patch: 'diff --git a/u.py b/u.py\n-old\n+new\n',
      ng_trajectory: { turns: 3, gaps: ['tool timing of turn 2'] },
      _ng_task_index: 0,
      _ng_rollout_index: 0,
    };
    const t = transcriptOf(row, '0#0');
    expect(t.items.map((i) => i.kind)).toEqual(['input', 'reasoning', 'call', 'other', 'message']);
    expect(t.items[2]).toMatchObject({ arguments: 'ls -la', output: null });
    expect([t.patch, t.verdict.resolved, t.observed?.gaps.map((g) => g.code)]).toEqual([row.model_patch, true, ['tool timing of turn 2']]);
    // Opened from a file of several agents by <agent>/<unit>.
    const path = join(tmp.path, 'two.jsonl');
    writeFileSync(path, jsonl([{ ...row, agent_ref: { name: 'a' } }, { ...row, reward: 0, agent_ref: { name: 'b' } }]));
    expect((await readTranscript(path, 'b/0#0', context()))?.reward).toBe(0);
  });
});
