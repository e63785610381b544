import { describe, expect, it } from 'vitest';
import { isOfBenchmark, isRun, withinLimit } from './limit';

const labels = (harness: string | null, model: string | null, effort: string | null) => ({ harness, model, condition: null, effort });

describe("a hosts file's limits (seed 001)", () => {
  it('names a run as <harness>-<model>-<effort>[-<tag>]: model without provider, family and version together, default where no effort is known', () => {
    expect(isRun(labels('codex', 'openai/gpt-6-luna', 'xhigh'), 'codex-gpt6_luna-xhigh')).toBe(true);
    expect(isRun(labels('claude-code', 'anthropic/claude-opus-5-5', 'adaptive'), 'claude_code-claude_opus_5_5-adaptive')).toBe(true);
    expect(isRun(labels('codex', 'gpt-6-luna', 'xhigh'), 'codex-gpt6_luna-xhigh-openrouter')).toBe(true);
    expect(isRun(labels('codex', 'gpt-6-luna', 'high'), 'codex-gpt6_luna-xhigh')).toBe(false);
    expect(isRun(labels('codex', 'gpt-6', 'xhigh'), 'codex-gpt6_luna-xhigh')).toBe(false);
    expect(isRun(labels('terminus-2', 'gpt-6', null), 'terminus_2-gpt6-default')).toBe(true);
    expect(isRun(labels('terminus-2', 'gpt-6', null), 'terminus_2-gpt6-high')).toBe(false);
    expect(isRun(labels(null, 'gpt-6', 'high'), 'codex-gpt6-high')).toBe(false);
    expect(isRun(labels('codex', 'gpt-6', 'high'), 'codex')).toBe(false);
  });

  it('finds a benchmark in the format, in what the files name, or at the start of a task folder, never inside a longer name', () => {
    const harbor = { format: 'harbor-job' as const, benchmarks: ['robolab-clean-up-toys-i00', 'terminal-bench'] };
    expect(isOfBenchmark(harbor, 'robolab')).toBe(true);
    expect(isOfBenchmark(harbor, 'terminal-bench')).toBe(true);
    expect(isOfBenchmark(harbor, 'robo')).toBe(false);
    expect(isOfBenchmark({ format: 'harbor-job', benchmarks: ['my-benchmark-pick-i00'] }, 'my-bench')).toBe(false);
    expect(isOfBenchmark({ format: 'bigym-agent', benchmarks: [] }, 'bigym-agent')).toBe(true);
  });

  it('lists a cell only when it is of one of the benchmarks and one of the runs, each list where it is given', () => {
    const cell = { format: 'evopolicygym' as const, benchmarks: ['cartpole'], labels: labels('codex', 'gpt-5.6-luna', 'high') };
    expect(withinLimit(cell, { benchmarks: ['cartpole'], runs: [] })).toBe(true);
    expect(withinLimit(cell, { benchmarks: [], runs: ['codex-gpt5_6_luna-high'] })).toBe(true);
    expect(withinLimit(cell, { benchmarks: ['cartpole'], runs: ['codex-gpt5_6_luna-xhigh'] })).toBe(false);
    expect(withinLimit(cell, { benchmarks: ['robolab', 'cartpole'], runs: ['claude_code-x-high', 'codex-gpt56luna-high'] })).toBe(true);
    expect(withinLimit(cell, { benchmarks: ['robolab'], runs: [] })).toBe(false);
  });
});
