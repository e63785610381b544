// Inspect AI logs as `inspect eval` writes them (formats.md section 6): two models on one task, each a
// `.eval` zip written over whole every few samples, its header at the end. The same samples and epochs,
// so the two pair and share a board.
import { join } from 'node:path';
import { evalMembers, zipOf, type LogSample, type LogSpec } from '../inspect/write';
import type { Pace } from './pace';
import { prng } from './prng';

export const INSPECT_FOLDER = 'inspect_logs';
export const INSPECT_MODELS = ['openai/demo-mini', 'anthropic/demo-sonnet'] as const;
const SAMPLES = 10;
const EPOCHS = 2;
/** Samples between two flushes of the log (Inspect's default is at most 10). */
const FLUSH_EVERY = 3;
const SKILL: Record<(typeof INSPECT_MODELS)[number], number> = { 'openai/demo-mini': 0.55, 'anthropic/demo-sonnet': 0.8 };

const question = (id: number) => ({ a: 12 + id * 9, b: 4 + ((id * 7) % 13) });

function sample(id: number, epoch: number, model: (typeof INSPECT_MODELS)[number], random: () => number): LogSample {
  const { a, b } = question(id);
  const right = random() < SKILL[model];
  const answer = right ? a * b : a * b + 1 + Math.floor(random() * 9);
  const call = `call_${id}_${epoch}`;
  const input = 160 + Math.floor(random() * 60);
  // Its events on one clock, as Inspect records them: each model call and the tool call from its start to its
  // completion; a sample every 9 minutes, so its spend per hour has hours to show.
  const start = Date.UTC(2026, 11, 1, 10, 0, 0) + ((epoch - 1) * SAMPLES + id) * 540_000;
  const at = (s: number) => new Date(start + s * 1000).toISOString();
  const slow = 1 + ((id * 37 + epoch * 11) % 10) / 10;
  const output = 30 + Math.floor(random() * 20);
  const messages = [
    { id: `u_${id}_${epoch}`, role: 'user', content: `What is ${a} * ${b}? Answer with the number only.`, source: 'input' },
    { id: `m1_${id}_${epoch}`, role: 'assistant', content: '', tool_calls: [{ id: call, function: 'python', arguments: { code: `print(${a} * ${b})` } }] },
    { id: `t_${id}_${epoch}`, role: 'tool', tool_call_id: call, function: 'python', content: String(right ? a * b : answer) },
    { id: `m2_${id}_${epoch}`, role: 'assistant', content: String(answer) },
  ];
  // As log v3 writes them: each model call's input as ranges into the sample's message pool.
  const modelCall = (n: 1 | 2, from: number, to: number, sent: number) => ({
    event: 'model', timestamp: at(from), completed: at(to), input: [], input_refs: [[0, sent]],
    output: { choices: [{ message: { id: `m${n}_${id}_${epoch}` } }], usage: { input_tokens: n === 1 ? input - 40 : 40, output_tokens: n === 1 ? output - 4 : 4 } },
  });
  const events = [
    { event: 'sample_init', timestamp: at(0) },
    modelCall(1, 0.1, 0.1 + slow, 1),
    { event: 'tool', id: call, function: 'python', timestamp: at(0.2 + slow), completed: at(0.8 + slow) },
    modelCall(2, 0.9 + slow, 1.5 + slow, 3),
    { event: 'score', timestamp: at(1.6 + slow) },
  ];
  return {
    id,
    epoch,
    // A second scorer, as an eval often has: Inspect's `includes`, more lenient (the answer found anywhere in the output).
    scores: { match: right ? 'C' : 'I', includes: right || id % 3 === 0 ? 'C' : 'I' },
    usage: { [model]: { input_tokens: input, output_tokens: output, input_tokens_cache_read: 96 } },
    messages,
    events,
    messagePool: messages,
    completed: at(1.6 + slow),
  };
}

async function writeLog(folder: string, model: (typeof INSPECT_MODELS)[number], pace: Pace, seed: number): Promise<void> {
  const random = prng(seed);
  const file = join(folder, `2026-12-01T10-00-00+00-00_demo-arith_${model.split('/')[1]}.eval`);
  const spec: LogSpec = { task: 'demo_arith', model, sampleIds: Array.from({ length: SAMPLES }, (_, i) => i + 1), epochs: EPOCHS, scorer: 'match', samples: [] };
  await pace.writeBytes(file, zipOf(evalMembers(spec)));
  for (let epoch = 1; epoch <= EPOCHS; epoch++) {
    for (let id = 1; id <= SAMPLES; id++) {
      await pace.wait(2);
      spec.samples.push(sample(id, epoch, model, random));
      if (spec.samples.length % FLUSH_EVERY === 0) await pace.writeBytes(file, zipOf(evalMembers(spec)));
    }
  }
  await pace.wait(1);
  await pace.writeBytes(file, zipOf(evalMembers({ ...spec, status: 'success' })));
}

export async function writeInspectLogs(root: string, pace: Pace, name = INSPECT_FOLDER): Promise<void> {
  const folder = join(root, name);
  await Promise.all(INSPECT_MODELS.map((model, i) => writeLog(folder, model, pace, 5005 + i)));
}
